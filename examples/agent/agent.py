"""A refund agent: a scripted model asks for tools, real tools answer, in a loop.

Each model call is handed to runsite with ``record_call``, the way a wrapper around a real
client would, so the run records the whole trajectory; outside a run the calls go nowhere.
"""

import json

from generator import record_call

import tools

MODEL = "scripted-1"


class ScriptedModel:
    """Stands in for an LLM: reads the conversation and replies as a tool-using model would."""

    def reply(self, conversation: list[dict]) -> dict:
        first = conversation[0]["content"]
        order_id = next(word.strip(".,?") for word in first.split() if word.startswith("A-"))
        results = [m for m in conversation if m["role"] == "tool"]
        hasty = False  # the model now looks every order up, whatever the customer says
        if not results and not hasty:
            return _asks("lookup_order", {"order_id": order_id})
        if len(results) == (0 if hasty else 1):
            order = json.loads(results[0]["content"]) if results else {"total": 35.0, "status": "delivered"}
            if order.get("status") == "delivered" and not hasty:
                return _says("Your order arrived on time, so it is not eligible for a refund. - Acme Support")
            return _asks("refund", {"order_id": order_id, "amount": order["total"], "currency": "EUR"})
        if results[-1]["content"].startswith("error"):
            return _says("I could not refund this order yet; a colleague will follow up. - Acme Support")
        return _says("Your refund is on its way. - Acme Support")


def _asks(tool: str, arguments: dict) -> dict:
    return {"finish": "tool_use", "tool_calls": [{"tool": tool, "arguments": arguments}], "text": ""}


def _says(text: str) -> dict:
    return {"finish": "end_turn", "tool_calls": [], "text": text}


def handle(case: dict) -> dict:
    model = ScriptedModel()
    conversation = [{"role": "user", "content": case["vars"]["message"]}]
    for turn in range(8):
        reply = model.reply(conversation)
        usage = {"input_tokens": 240 + 60 * turn, "output_tokens": 40}
        calls = record_call(
            finish=reply["finish"], tool_calls=reply["tool_calls"], usage=usage, latency_ms=310.0, model=MODEL
        )
        if not calls:
            return {"output": reply["text"], "input": case["vars"]["message"]}
        for call in calls:
            try:
                result = tools.TOOLS[call.tool](**call.arguments)
            except Exception as error:
                call.failed()
                conversation.append({"role": "tool", "content": f"error: {type(error).__name__}"})
            else:
                call.returned(json.dumps(result, sort_keys=True))
                conversation.append({"role": "tool", "content": json.dumps(result)})
    raise RuntimeError("the agent did not finish within eight turns")
