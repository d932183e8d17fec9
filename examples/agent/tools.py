"""The agent's two tools, real functions over a small order book."""

ORDERS = {
    "A-1001": {"total": 89.0, "status": "delivered late", "locked": False},
    "A-1002": {"total": 140.0, "status": "delivered damaged", "locked": False},
    "A-1003": {"total": 60.0, "status": "lost in transit", "locked": True},
    "A-1004": {"total": 35.0, "status": "delivered", "locked": False},
    "A-1005": {"total": 72.0, "status": "delivered", "locked": False},
}


def lookup_order(order_id: str) -> dict:
    return {"order_id": order_id, **ORDERS[order_id]}


def refund(order_id: str, amount: float, currency: str) -> dict:
    if ORDERS[order_id]["locked"]:
        raise RuntimeError("the order is locked by the payments team")
    return {"order_id": order_id, "refunded": amount, "currency": currency}


TOOLS = {"lookup_order": lookup_order, "refund": refund}
