"""Network guard for tests: put this folder first on PYTHONPATH and every Python process (papermill kernels too)
refuses connections and name lookups to anything but loopback, logging each attempt to $PLAYWORLD_NETLOG."""
import os, socket

_LOG = os.environ.get('PLAYWORLD_NETLOG')
_LOCAL = {'localhost', '127.0.0.1', '::1', '0.0.0.0', '', None}


def _refuse(what, addr):
    if _LOG:
        with open(_LOG, 'a') as f: f.write(f"{os.getpid()} {what} {addr!r}\n")
    raise OSError(f"network access blocked by tests/netguard: {what} {addr!r}")


def _host(addr):
    return addr[0] if isinstance(addr, tuple) and addr else addr


def _is_local(host):
    return host in _LOCAL or (isinstance(host, str) and (host.startswith('127.') or host.startswith('/')))


_connect, _connect_ex, _sendto = socket.socket.connect, socket.socket.connect_ex, socket.socket.sendto
_getaddrinfo = socket.getaddrinfo


def connect(self, addr):
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_local(_host(addr)): _refuse('connect', addr)
    return _connect(self, addr)


def connect_ex(self, addr):
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_local(_host(addr)): _refuse('connect_ex', addr)
    return _connect_ex(self, addr)


def sendto(self, data, *args):
    addr = args[-1]
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_local(_host(addr)): _refuse('sendto', addr)
    return _sendto(self, data, *args)


def getaddrinfo(host, *args, **kw):
    if not _is_local(host.decode() if isinstance(host, bytes) else host): _refuse('getaddrinfo', host)
    return _getaddrinfo(host, *args, **kw)


if _LOG is not None:
    socket.socket.connect, socket.socket.connect_ex, socket.socket.sendto = connect, connect_ex, sendto
    socket.getaddrinfo = getaddrinfo
