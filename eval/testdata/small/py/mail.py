class Mailbox:
    """A folder of messages kept on disk."""

    def deliver(self, message):
        """Append a message to the end of the folder."""
        self.messages.append(message)


def parse_header(line):
    """Split a header line into its field name and value."""
    name, _, value = line.partition(":")
    return name.strip(), value.strip()
