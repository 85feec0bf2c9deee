"""Construct Gemini chat and embedding models from settings (the key stays in the environment)."""

from __future__ import annotations

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

__all__ = ["make_gemini_chat_model", "make_gemini_embeddings"]


def make_gemini_chat_model(
    model: str, *, temperature: float, timeout: float, max_retries: int = 2
) -> BaseChatModel:
    """A ``ChatGoogleGenerativeAI``; it reads ``GOOGLE_API_KEY`` from the environment itself."""
    from langchain_google_genai import ChatGoogleGenerativeAI

    return ChatGoogleGenerativeAI(
        model=model, temperature=temperature, timeout=timeout, max_retries=max_retries
    )


def make_gemini_embeddings(model: str) -> Embeddings:
    """``GoogleGenerativeAIEmbeddings`` for dense retrieval in hybrid mode."""
    from langchain_google_genai import GoogleGenerativeAIEmbeddings

    return GoogleGenerativeAIEmbeddings(model=model)
