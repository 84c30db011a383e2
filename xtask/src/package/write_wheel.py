"""Writes a wheel (PEP 427) from files on disk: `python3 write_wheel.py WHEEL_PATH
ARCHIVE_NAME=SOURCE_PATH[:MODE] ...`. Adds the `RECORD` (sha256 and size of every entry)
under the `.dist-info/` folder the other entries name. Entries keep the given order; the
mode (octal, default 644) is kept in the archive, so a script stays executable.
Used by xtask/src/package/server_wheel.rs; the wheel's contents are decided there."""

import base64
import hashlib
import sys
import zipfile

FIXED_TIME = (2020, 1, 1, 0, 0, 0)


def main(wheel_path, entries):
    record_lines = []
    dist_info = None
    with zipfile.ZipFile(wheel_path, "w", compression=zipfile.ZIP_DEFLATED) as wheel:
        for entry in entries:
            name, _, source = entry.partition("=")
            source, _, mode = source.partition(":")
            with open(source, "rb") as f:
                data = f.read()
            write(wheel, name, data, int(mode or "644", 8))
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            record_lines.append(f"{name},sha256={digest.decode()},{len(data)}")
            if name.split("/")[0].endswith(".dist-info"):
                dist_info = name.split("/")[0]
        if dist_info is None:
            sys.exit("write_wheel: no .dist-info entry")
        record = f"{dist_info}/RECORD"
        record_lines.append(f"{record},,")
        write(wheel, record, ("\n".join(record_lines) + "\n").encode(), 0o644)


def write(wheel, name, data, mode):
    info = zipfile.ZipInfo(name, FIXED_TIME)
    info.external_attr = (0o100000 | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    wheel.writestr(info, data, compresslevel=9)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
