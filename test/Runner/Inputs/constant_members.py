"""constant_members.py ARCHIVE...: reads each GNU archive that
JitSession::writeObject wrote (an object cache entry's .o) and prints, per
constant member (<symbol>.data), whether its bytes start at a multiple of 8
in the file, as the writer promises: the member is one byte p < 8, p zero
bytes, then the constant's bytes.

  <symbol>: <size> bytes at <offset>, aligned | NOT ALIGNED
"""
import sys

for path in sys.argv[1:]:
    data = open(path, "rb").read()
    assert data[:8] == b"!<arch>\n", f"{path}: not an archive"
    offset, names = 8, b""
    while offset < len(data):
        header = data[offset:offset + 60]
        name, size = header[:16].rstrip(b" "), int(header[48:58])
        start = offset + 60
        body = data[start:start + size]
        if name == b"//":
            names = body
        else:
            if name.startswith(b"/"):  # a long name: "/<offset in //>"
                at = int(name[1:])
                name = names[at:names.index(b"/\n", at)]
            else:
                name = name.rstrip(b"/")
            if name.endswith(b".data"):
                pad = body[0]
                begin = start + 1 + pad
                ok = pad < 8 and body[1:1 + pad] == bytes(pad) and begin % 8 == 0
                print(f"{name[:-5].decode()}: {size - 1 - pad} bytes at {begin}, "
                      f"{'aligned' if ok else 'NOT ALIGNED'}")
        offset = start + size + (size & 1)
