#!/usr/bin/python3
"""runtime/fuzz/make_archive_seeds.py OUT_DIR -- writes the seed corpus of
lsdae_fuzz_archive: small zip archives of every shape the archive layer has a
rule for (fuzz_archive.cpp, runtime/import/archive.h). The committed seeds in
runtime/fuzz/seeds_archive/ were made with it (Python 3.11 zipfile, fixed
timestamps, so the output is reproducible)."""
import io
import os
import struct
import sys
import zipfile

DATE = (2026, 1, 2, 3, 4, 6)
MD = b'<?xml version="1.0" encoding="UTF-8"?>\n<fmiModelDescription fmiVersion="3.0" modelName="M" instantiationToken="{t}">\n  <ModelExchange modelIdentifier="M"/>\n  <ModelVariables/>\n</fmiModelDescription>\n'


def info(name, mode=0o100644, system=3, method=zipfile.ZIP_DEFLATED):
    zi = zipfile.ZipInfo(name, date_time=DATE)
    zi.create_system = system
    zi.external_attr = (mode << 16) | (0x10 if name.endswith("/") else 0)
    if system == 0:  # MS-DOS attributes only: the archive bit
        zi.external_attr = 0x20
    zi.compress_type = method
    return zi


def archive(members, method=zipfile.ZIP_DEFLATED, seekable=True, comment=b""):
    """members: (name, bytes, mode[, system]) tuples; duplicates are kept."""
    raw = io.BytesIO()
    out = raw if seekable else Unseekable(raw)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with zipfile.ZipFile(out, "w", method) as z:
            z.comment = comment
            for m in members:
                name, data, mode = m[:3]
                system = m[3] if len(m) > 3 else 3
                z.writestr(info(name, mode, system, method), data)
    return raw.getvalue()


class Unseekable(io.RawIOBase):
    """A stream zipfile cannot seek back in: it writes data descriptors."""
    def __init__(self, inner):
        self.inner = inner
    def writable(self):
        return True
    def write(self, b):
        return self.inner.write(b)
    def flush(self):
        pass


def patch_sizes(data, name, size):
    """Sets the uncompressed size of member `name` in the local and central headers."""
    buf = bytearray(data)
    key = name.encode()
    pos = 0
    while True:
        pos = buf.find(b"PK\x03\x04", pos)
        if pos < 0:
            break
        n, = struct.unpack_from("<H", buf, pos + 26)
        if bytes(buf[pos + 30:pos + 30 + n]) == key:
            struct.pack_into("<I", buf, pos + 22, size)
        pos += 4
    pos = 0
    while True:
        pos = buf.find(b"PK\x01\x02", pos)
        if pos < 0:
            break
        n, = struct.unpack_from("<H", buf, pos + 28)
        if bytes(buf[pos + 46:pos + 46 + n]) == key:
            struct.pack_into("<I", buf, pos + 24, size)
        pos += 4
    return bytes(buf)


def main(out):
    os.makedirs(out, exist_ok=True)
    fmu = [("modelDescription.xml", MD, 0o100644),
           ("binaries/", b"", 0o40755),
           ("binaries/x86_64-linux/", b"", 0o40755),
           ("binaries/x86_64-linux/M.so", b"\x7fELF" + bytes(60), 0o100755),
           ("resources/table.csv", b"t,y\n0,1\n1,2\n", 0o100644),
           ("extra/org.fmi-standard.fmi-ls-dae/fmi-ls-manifest.xml", b"<fmiLayeredStandardManifest/>\n", 0o100644)]
    seeds = {
        "fmu_deflated": archive(fmu),
        "fmu_stored": archive(fmu, method=zipfile.ZIP_STORED),
        "fmu_data_descriptors": archive(fmu, seekable=False),
        "python_writestr_0600_duplicate": archive([("modelDescription.xml", MD, 0o600),
                                                   ("sources/model.c", b"int x;\n", 0o600),
                                                   ("sources/model.c", b"int x;\n", 0o600)]),
        "duplicates_differ": archive([("a.txt", b"one", 0o100644), ("a.txt", b"two", 0o100644)]),
        "duplicate_spellings": archive([("a/x", b"same", 0o100644), ("a\\x", b"same", 0o100644),
                                        ("./a//x", b"same", 0o100644)]),
        "file_and_folder": archive([("a", b"file", 0o100644), ("a/", b"", 0o40755), ("b/c", b"", 0o100644),
                                    ("b", b"", 0o100644)]),
        "symlink": archive([("resources/link", b"/etc/passwd", 0o120777)]),
        "special_files": archive([("fifo", b"", 0o10644), ("chr", b"", 0o20600), ("blk", b"", 0o60600),
                                  ("sock", b"", 0o140600)]),
        "hostile_names": archive([("../evil", b"x", 0o100644), ("a/../../b", b"x", 0o100644),
                                  ("/abs", b"x", 0o100644), ("C:drive", b"x", 0o100644),
                                  ("a\\..\\..\\c", b"x", 0o100644), (".", b"", 0o40755)]),
        "deep": archive([("d/" * 200 + "f", b"bottom", 0o100644)]),
        "dos_attributes": archive([("readme.txt", b"dos", 0, 0)]),
        "ratio": archive([("zeros.bin", bytes(1 << 20), 0o100644)]),
        "lying_size": patch_sizes(archive([("zeros.bin", bytes(256 << 10), 0o100644)]), "zeros.bin", 100),
        "empty": archive([]),
        "comment": archive([("a.txt", b"text", 0o100644)], comment=b"an archive comment"),
        "unicode": archive([("resources/\u00e9t\u00e9/\u6570\u636e.txt", "\u00e9".encode(), 0o100644)]),
    }
    z64 = io.BytesIO()
    with zipfile.ZipFile(z64, "w", zipfile.ZIP_DEFLATED) as z:
        with z.open(info("big.txt"), "w", force_zip64=True) as f:
            f.write(b"zip64 local header\n")
    seeds["zip64"] = z64.getvalue()
    for name, data in seeds.items():
        with open(os.path.join(out, name + ".zip"), "wb") as f:
            f.write(data)
    print(f"make_archive_seeds: {len(seeds)} seeds in {out}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "seeds_archive"))
