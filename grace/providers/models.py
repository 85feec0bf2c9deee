"""Any LangChain chat model by one string: ``provider:model`` (``init_chat_model``'s convention).

One table says, per provider, which package and class make its chat model, which extra
installs it, which variable holds its key and where a local server listens by default.
:func:`chat_model` builds the model from a spec such as ``openai:gpt-4.1-mini``,
``ollama:qwen3`` or ``google_genai:gemini-2.5-flash``; anything wrong with the spec, the
installation or the key is a :class:`~grace.errors.ModelSetupError` that says what to do,
and :func:`check_reachable` tells a local server that is not running from one that is, before a
run starts.
"""

from __future__ import annotations

import importlib
import os
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from confidence.structured import DEFAULT_METHODS
from grace.errors import ModelSetupError, ModelUnavailableError

__all__ = [
    "OFFLINE",
    "PROVIDERS",
    "ModelProvider",
    "calibration_label",
    "chat_model",
    "check_reachable",
    "embeddings_model",
    "parse_spec",
    "provider_of",
    "request_timeout_arg",
    "structured_methods",
]

OFFLINE = "offline"
"""The spec of GRACE's embedded engine (rule-based planner, extractive reader, lexical judge)."""


@dataclass(frozen=True, kw_only=True)
class ModelProvider:
    """How to build one provider's chat (and embedding) models."""

    package: str
    """Python module of the integration (``langchain_openai``)."""
    chat_class: str
    """Its chat model class (``ChatOpenAI``)."""
    extra: str
    """``pip install "grace-agent[<extra>]"`` installs it (empty: a core dependency)."""
    key_env: str | None = None
    """Variable holding the API key (None: no key, e.g. a local server)."""
    embeddings_class: str | None = None
    """Its embeddings class, if any."""
    default_url: str | None = None
    """Where its local server listens unless ``models.base_url`` says otherwise."""
    url_arg: str = "base_url"
    """Constructor argument that takes the server URL."""
    calibration_label: str = ""
    """Name calibration files use for it (default: the provider key)."""
    start_hint: str = "start the server"
    """How a user starts its local server, for the message when it does not answer."""
    retries_arg: str | None = None
    """Constructor argument of the client's own retries (``models.max_retries``; by default
    0 against a server you name, ``models.base_url``, whose refusals are not worth repeating
    identically — GRACE's ``RetryPolicy`` retries transient failures, and structured output
    steps down instead)."""
    retries_count_first: bool = False
    """The client's argument counts attempts, the first included (Google's SDK), not retries."""
    request_timeout_arg: str | None = None
    """Keyword of a call that sets that request's own timeout (the OpenAI client's
    ``timeout``); None: the client's timeout is fixed when it is built. A run's model time
    bounds each request through it, and against a server you name the structured calls
    stream (they can then be stopped before the first token as well as after it)."""
    max_tokens_field: str | None = None
    """The chat class's field that caps a reply's tokens (``models.max_tokens`` per role);
    None: no cap is set (Gemini 2.5 counts its thinking tokens in ``max_output_tokens``, so
    a cap sized for the reply would empty it: ``finish_reason: MAX_TOKENS``)."""
    structured_methods: tuple[str, ...] = DEFAULT_METHODS
    """Structured-output methods to try, in order: a refusal that names the request's
    format steps down to the next, once per model and services (their ``FormatMemory``;
    ``default``: the class's own ``with_structured_output``; ``text``: JSON asked for in
    the reply)."""
    other_chat_classes: tuple[str, ...] = ()
    """Further chat classes that take this provider's requests (Azure's OpenAI client)."""
    named_server_field: str | None = None
    """The chat class's field holding the URL of a server you named (``openai_api_base``).
    When it is set on a model of the row's own ``chat_class``, a capped request also carries
    ``max_tokens`` in its body and asks for a streamed reply's usage: servers of the same
    API elsewhere (llama.cpp's, LM Studio's, Ollama's) read ``max_tokens``, and the client
    sends the cap under another name (``max_completion_tokens``). None, or a class of
    ``other_chat_classes``: the request as the client sends it."""


PROVIDERS: dict[str, ModelProvider] = {
    "google_genai": ModelProvider(
        package="langchain_google_genai",
        chat_class="ChatGoogleGenerativeAI",
        extra="",
        key_env="GOOGLE_API_KEY",
        embeddings_class="GoogleGenerativeAIEmbeddings",
        calibration_label="gemini",
        retries_arg="max_retries",
        retries_count_first=True,
    ),
    "openai": ModelProvider(
        package="langchain_openai",
        chat_class="ChatOpenAI",
        extra="openai",
        key_env="OPENAI_API_KEY",
        embeddings_class="OpenAIEmbeddings",
        retries_arg="max_retries",
        request_timeout_arg="timeout",
        max_tokens_field="max_tokens",
        structured_methods=("json_schema", "json_mode", "function_calling", "text"),
        other_chat_classes=("AzureChatOpenAI",),
        named_server_field="openai_api_base",
    ),
    "anthropic": ModelProvider(
        package="langchain_anthropic",
        chat_class="ChatAnthropic",
        extra="anthropic",
        key_env="ANTHROPIC_API_KEY",
        retries_arg="max_retries",
        max_tokens_field="max_tokens",
    ),
    "ollama": ModelProvider(
        package="langchain_ollama",
        chat_class="ChatOllama",
        extra="ollama",
        embeddings_class="OllamaEmbeddings",
        default_url="http://127.0.0.1:11434",
        start_hint="start Ollama (`ollama serve`)",
        max_tokens_field="num_predict",
    ),
}
"""Providers GRACE can build by name; add a row to support another."""


def parse_spec(spec: str) -> tuple[str, str]:
    """``("openai", "gpt-4.1-mini")`` from ``openai:gpt-4.1-mini``; errors name the table."""
    provider, sep, model = spec.partition(":")
    if not sep or not model.strip() or provider not in PROVIDERS:
        known = ", ".join(f"{name}:<model>" for name in PROVIDERS)
        raise ModelSetupError(
            f"model {spec!r} is not '{OFFLINE}' or provider:model with a provider GRACE "
            f"knows ({known})"
        )
    return provider, model.strip()


def provider_of(model: BaseChatModel) -> ModelProvider | None:
    """The row whose chat class ``model`` is (None: a class no row names)."""
    name = type(model).__name__
    for row in PROVIDERS.values():
        if name == row.chat_class or name in row.other_chat_classes:
            return row
    return None


def structured_methods(model: BaseChatModel) -> tuple[str, ...]:
    """The structured-output methods to try with ``model``, in order (its provider's)."""
    row = provider_of(model)
    return row.structured_methods if row is not None else DEFAULT_METHODS


def request_timeout_arg(spec: str) -> str | None:
    """The per-request timeout keyword of ``spec``'s client (None: it takes none)."""
    provider, _ = parse_spec(spec)
    return PROVIDERS[provider].request_timeout_arg


def _class(provider: str, name: str) -> Any:
    row = PROVIDERS[provider]
    try:
        module = importlib.import_module(row.package)
    except ImportError:
        install = f'pip install "grace-agent[{row.extra}]"' if row.extra else "pip install -e ."
        raise ModelSetupError(
            f"the {provider} provider needs the {row.package.replace('_', '-')} package, "
            f"which is not installed: {install}"
        ) from None
    return getattr(module, name)


def _key_kwargs(provider: str, base_url: str | None, api_key_env: str | None) -> dict[str, Any]:
    """The API key argument: from ``api_key_env`` or the provider's own variable."""
    row = PROVIDERS[provider]
    variable = api_key_env or row.key_env
    if variable is None:
        return {}
    key = os.environ.get(variable)
    if key:
        return {"api_key": key} if api_key_env else {}  # integrations read their own variable
    if base_url is not None:  # a local OpenAI-compatible server usually wants no key
        return {"api_key": "not-needed"}
    raise ModelSetupError(
        f"the {provider} provider needs an API key in the environment variable {variable} "
        "(or set models.api_key_env to the variable that holds it)"
    )


def chat_model(
    spec: str,
    *,
    temperature: float,
    timeout: float,
    base_url: str | None = None,
    api_key_env: str | None = None,
    max_retries: int | None = None,
) -> BaseChatModel:
    """The chat model ``spec`` names (``provider:model``), ready to call.

    ``max_retries``: the client's own retries (None: 0 against ``base_url``, else 2).
    """
    provider, model = parse_spec(spec)
    row = PROVIDERS[provider]
    cls = _class(provider, row.chat_class)
    kwargs: dict[str, Any] = {"model": model, "temperature": temperature, "timeout": timeout}
    kwargs |= _key_kwargs(provider, base_url, api_key_env)
    url = base_url or row.default_url
    if url is not None:
        kwargs[row.url_arg] = url
    if row.retries_arg is not None:
        retries = max_retries if max_retries is not None else 0 if base_url is not None else 2
        kwargs[row.retries_arg] = retries + 1 if row.retries_count_first else retries
    built: BaseChatModel = cls(**kwargs)
    return built


def embeddings_model(spec: str, *, base_url: str | None = None) -> Embeddings:
    """The embedding model ``spec`` names (``init_embeddings`` convention)."""
    provider, model = parse_spec(spec)
    row = PROVIDERS[provider]
    if row.embeddings_class is None:
        raise ModelSetupError(f"the {provider} provider has no embedding models in GRACE")
    cls = _class(provider, row.embeddings_class)
    kwargs: dict[str, Any] = {"model": model}
    url = base_url or row.default_url
    if url is not None:
        kwargs[row.url_arg] = url
    built: Embeddings = cls(**kwargs)
    return built


def check_reachable(spec: str, base_url: str | None, timeout: float = 2.0) -> None:
    """Raise ModelUnavailableError when the local server of ``spec`` does not answer.

    Only servers GRACE knows an address of (``models.base_url`` or the provider's local
    default, e.g. Ollama) are checked — with one TCP connection, no request. Hosted APIs are
    reached through their own client and retried by the graph.
    """
    if spec == OFFLINE:
        return
    provider, _ = parse_spec(spec)
    url = base_url or PROVIDERS[provider].default_url
    if url is None:
        return
    parts = urlsplit(url)
    host = parts.hostname or "127.0.0.1"
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return
    except OSError as exc:
        raise ModelUnavailableError(
            f"cannot reach the {provider} server at {url} ({exc.strerror or exc}): "
            f"{PROVIDERS[provider].start_hint}, or set models.base_url to where it listens"
        ) from None


def calibration_label(spec: str) -> str:
    """The name calibration files use for the engine of ``spec`` (``offline``, ``gemini`` …)."""
    if spec == OFFLINE:
        return OFFLINE
    provider, _ = parse_spec(spec)
    return PROVIDERS[provider].calibration_label or provider
