"""The providers runsite ships, registered in the entry-point group ``runsite.providers``:
``openai`` (OpenAI, and every server that speaks its Chat Completions API at another
``base_url``: vLLM, Ollama, llama.cpp's server, LM Studio) and ``anthropic``.

Each one calls its API through the provider's own SDK, installed as an extra
(``runsite[openai]``, ``runsite[anthropic]``) and imported only when a suite names it, so
runsite without the extra loads every other suite and refuses this one by name. No key is ever
read here: each SDK reads its own environment variable.

What every provider shares lives beside them: ``completion`` (one call, as any API's reply is
read into it), ``caller`` (a provider target: the prompt, the timing, the price, the
trajectory) and ``judging`` (the two judges: the rubric prompt, the lenient reading of a
reply).
"""
