import os.path
import pkg.xmllike
from pkg import jsonlike
from pkg.jsonlike import Decoder


def read_json(s):
    return jsonlike.loads(s)


def read_xml(s):
    return pkg.xmllike.loads(s)


def decode(s):
    d: Decoder = Decoder()
    return d.decode(s)


def join_path(a):
    return os.path.join(a, "b")


class Client:
    def send(self, data):
        self.flush()
        return data

    def flush(self):
        pass


def other(c):
    c.flush()


class Pool:
    def close(self):
        pass


def shutdown(c):
    c.close()
