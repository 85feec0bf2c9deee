"""Any LangChain chat model by one string: ``provider:model`` (``init_chat_model``'s convention).

``init_chat_model`` (``langchain``) maps the provider to its package and class and builds
the model; one table says, per provider, what it does not know: which extra installs it,
which variable holds its key, where a local server listens by default, the client's request
fields and its structured-output ladder.
:func:`chat_model` builds the model from a spec such as ``openai:gpt-4.1-mini``,
``ollama:qwen3`` or ``google_genai:gemini-2.5-flash``; anything wrong with the spec, the
installation or the key is a :class:`~grace.errors.ModelSetupError` that says what to do,
and :func:`check_reachable` tells a local server that is not running from one that is, before a
run starts.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from langchain_core.embeddings import Embeddings

from grace.errors import ModelSetupError, ModelUnavailableError

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = [
    "DEFAULT_METHODS",
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
DEFAULT_METHODS: tuple[str, ...] = ("default", "text")
"""Structured-output methods to try unless told otherwise: the class's own, then JSON in the
reply's text. A provider names its own ladder (:attr:`ModelProvider.structured_methods`)."""


@dataclass(frozen=True, kw_only=True)
class ModelProvider:
    """What GRACE needs of one provider that ``init_chat_model`` does not know.

    ``init_chat_model`` / ``init_embeddings`` (``langchain``) map the provider to its package
    and classes and build the models; a row holds the rest: the install, the key variable,
    the local server, the client's request fields and the structured-output ladder.
    """

    chat_classes: tuple[str, ...]
    """Chat classes whose requests the row shapes, the one ``init_chat_model`` builds for the
    provider first (``ChatOpenAI``; then Azure's ``AzureChatOpenAI``, which takes the same
    requests): how a model handed to GRACE finds its row (:func:`provider_of`)."""
    extra: str
    """``pip install "grace-agent[<extra>]"`` installs it (empty: a core dependency)."""
    key_env: str | None = None
    """Variable holding the API key (None: no key, e.g. a local server)."""
    embeddings: bool = False
    """GRACE builds its embedding models too (``models.embeddings``, by ``init_embeddings``)."""
    default_url: str | None = None
    """Where its local server listens unless ``models.base_url`` says otherwise."""
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
    named_server_field: str | None = None
    """The chat class's field holding the URL of a server you named (``openai_api_base``).
    When it is set on a model of the row's first chat class, a capped request also carries
    ``max_tokens`` in its body and asks for a streamed reply's usage: servers of the same
    API elsewhere (llama.cpp's, LM Studio's, Ollama's) read ``max_tokens``, and the client
    sends the cap under another name (``max_completion_tokens``). None, or another class of
    the row: the request as the client sends it."""


PROVIDERS: dict[str, ModelProvider] = {
    "google_genai": ModelProvider(
        chat_classes=("ChatGoogleGenerativeAI",),
        extra="",
        key_env="GOOGLE_API_KEY",
        embeddings=True,
        calibration_label="gemini",
        retries_arg="max_retries",
        retries_count_first=True,
    ),
    "openai": ModelProvider(
        chat_classes=("ChatOpenAI", "AzureChatOpenAI"),
        extra="openai",
        key_env="OPENAI_API_KEY",
        embeddings=True,
        retries_arg="max_retries",
        request_timeout_arg="timeout",
        max_tokens_field="max_tokens",
        structured_methods=("json_schema", "json_mode", "function_calling", "text"),
        named_server_field="openai_api_base",
    ),
    "anthropic": ModelProvider(
        chat_classes=("ChatAnthropic",),
        extra="anthropic",
        key_env="ANTHROPIC_API_KEY",
        retries_arg="max_retries",
        max_tokens_field="max_tokens",
    ),
    "ollama": ModelProvider(
        chat_classes=("ChatOllama",),
        extra="ollama",
        embeddings=True,
        default_url="http://127.0.0.1:11434",
        start_hint="start Ollama (`ollama serve`)",
        max_tokens_field="num_predict",
    ),
}
"""Providers GRACE can build by name (each one ``init_chat_model`` knows); add a row to
support another."""


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
    """The row one of whose chat classes ``model`` is (None: a class no row names)."""
    name = type(model).__name__
    return next((row for row in PROVIDERS.values() if name in row.chat_classes), None)


def structured_methods(model: BaseChatModel) -> tuple[str, ...]:
    """The structured-output methods to try with ``model``, in order (its provider's)."""
    row = provider_of(model)
    return row.structured_methods if row is not None else DEFAULT_METHODS


def request_timeout_arg(spec: str) -> str | None:
    """The per-request timeout keyword of ``spec``'s client (None: it takes none)."""
    provider, _ = parse_spec(spec)
    return PROVIDERS[provider].request_timeout_arg


def _missing_package(provider: str, exc: ImportError) -> ModelSetupError:
    """The one-line error for a provider whose integration package is not installed."""
    extra = PROVIDERS[provider].extra
    install = f'pip install "grace-agent[{extra}]"' if extra else "pip install -e ."
    module = getattr(exc.__cause__, "name", None) or exc.name or f"langchain_{provider}"
    return ModelSetupError(
        f"the {provider} provider needs the {module.split('.')[0].replace('_', '-')} package, "
        f"which is not installed: {install}"
    )


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
    from langchain.chat_models import init_chat_model  # langchain: only when a model is built

    provider, model = parse_spec(spec)
    row = PROVIDERS[provider]
    kwargs: dict[str, Any] = {"temperature": temperature, "timeout": timeout}
    kwargs |= _key_kwargs(provider, base_url, api_key_env)
    url = base_url or row.default_url
    if url is not None:
        kwargs["base_url"] = url
    if row.retries_arg is not None:
        retries = max_retries if max_retries is not None else 0 if base_url is not None else 2
        kwargs[row.retries_arg] = retries + 1 if row.retries_count_first else retries
    try:
        built: BaseChatModel = init_chat_model(model, model_provider=provider, **kwargs)
    except ImportError as exc:
        raise _missing_package(provider, exc) from None
    return built


def embeddings_model(spec: str, *, base_url: str | None = None) -> Embeddings:
    """The embedding model ``spec`` names (``init_embeddings``' convention and providers)."""
    from langchain.embeddings import init_embeddings

    provider, model = parse_spec(spec)
    row = PROVIDERS[provider]
    if not row.embeddings:
        raise ModelSetupError(f"the {provider} provider has no embedding models in GRACE")
    url = base_url or row.default_url
    kwargs: dict[str, Any] = {} if url is None else {"base_url": url}
    try:
        return init_embeddings(model, provider=provider, **kwargs)
    except ImportError as exc:
        raise _missing_package(provider, exc) from None


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
