"""Mail messages."""


class Message:
    """A mail message: headers and a payload."""

    def __init__(self, payload):
        self.payload = payload

    def get_payload(self):
        """Return the message body, decoded."""
        return self.payload

    def body_ref(self):
        """Return a reference to the payload."""
        return self

    def attach(self, part):
        """Add a part to the payload of a multipart message."""
        self.payload.append(part)
