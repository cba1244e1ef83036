def encode_body(text):
    return text.encode()


def decode_body(data):
    return data.decode()


def fold_header(name, value):
    return name + ": " + value


def split_header(line):
    return line.split(":", 1)


def quote_string(text):
    return '"' + text + '"'


def unquote_string(text):
    return text.strip('"')


class Message:
    def attach(self, part):
        self.parts.append(part)

    def walk(self):
        return iter(self.parts)
