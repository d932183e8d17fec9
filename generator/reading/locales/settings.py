"""The names of the settings whose values a page may show (``document.record.SETTINGS``), in
each language: a reader sees "temperatura", not the configuration's key ``temperature``.

A setting outside this list is shown by its key, as the configuration wrote it: it is the
user's own name, and no language has another for it.
"""

from __future__ import annotations

NAMES: dict[str, dict[str, str]] = {
    "en": {
        "provider": "provider",
        "model": "model",
        "resolved_model": "resolved model",
        "reasoning_effort": "reasoning effort",
        "temperature": "temperature",
        "top_p": "top-p",
        "top_k": "top-k",
        "max_tokens": "token limit",
        "seed": "seed",
        "frequency_penalty": "frequency penalty",
        "presence_penalty": "presence penalty",
        "input_per_mtok": "input price per million tokens",
        "output_per_mtok": "output price per million tokens",
        "cache_read_per_mtok": "cache read price per million tokens",
        "cache_write_per_mtok": "cache write price per million tokens",
        "json_mode": "JSON mode",
    },
    "it": {
        "provider": "fornitore",
        "model": "modello",
        "resolved_model": "modello effettivo",
        "reasoning_effort": "impegno di ragionamento",
        "temperature": "temperatura",
        "top_p": "top-p",
        "top_k": "top-k",
        "max_tokens": "limite di token",
        "seed": "seme",
        "frequency_penalty": "penalità di frequenza",
        "presence_penalty": "penalità di presenza",
        "input_per_mtok": "prezzo per milione di token in ingresso",
        "output_per_mtok": "prezzo per milione di token in uscita",
        "cache_read_per_mtok": "prezzo per milione di token letti dalla cache",
        "cache_write_per_mtok": "prezzo per milione di token scritti nella cache",
        "json_mode": "modalità JSON",
    },
}

SWITCHED: dict[str, tuple[str, str]] = {"en": ("on", "off"), "it": ("attiva", "disattiva")}
"""A setting that is true or false, as each language says it is (the only such setting is a
mode: "JSON mode: on", "modalità JSON: attiva")."""


def setting_name(language: str, key: str) -> str:
    """The name ``language`` gives the setting ``key``; the key itself for a setting of the
    user's own."""
    return NAMES[language].get(key, key)
