"""host_tools/images.py: the official images' checks (family, version,
truncation, sha256), the boot ROM out of its ELF, the downloads (from a
local server on 127.0.0.1, never a real host), and the one-line errors of
what needs an image that is not there."""

import http.server
import os
import struct
import threading

import pytest
from hypothesis import given, settings, strategies as st

from conftest import fake_images, fake_rom, fake_uf2, one_line_error, run_cli
from host_tools import images

MP = images.IMAGES["micropython"]
CP = images.IMAGES["circuitpython-pico"]
ROM = images.IMAGES["bootrom"]


def problem(image, data):
    return images.problem(image, data)


# --- the checks ---------------------------------------------------------------------


def test_the_tests_own_images_pass_the_checks():
    for image in images.IMAGES.values():
        data = fake_rom() if image.kind == "rom" else fake_uf2(image.marks, 40)
        assert problem(image, data) is None, image


def test_a_uf2_for_another_family_is_refused():
    data = fake_uf2(MP.marks, 40, family=0xADA52840)  # the nRF52840's
    assert problem(MP, data) == "is not for the RP2040 (block 0's family is 0xada52840, not 0xe48bff56)"


def test_another_version_or_board_is_refused():
    assert problem(MP, fake_uf2((b"MicroPython v1.27.0", MP.marks[1]), 40)) == \
        "is not MicroPython v1.28.0 (rp2 port, RPI_PICO) (b'MicroPython v1.28.0' is not in it)"
    # MicroPython where CircuitPython should be, and one board's CircuitPython for another's
    assert "b'CircuitPython 10.2.1' is not in it" in problem(CP, fake_uf2(MP.marks, 40))
    macropad = images.IMAGES["circuitpython-macropad"]
    assert "b'Adafruit Macropad RP2040 with rp2040' is not in it" in problem(macropad, fake_uf2(CP.marks, 40))


@settings(max_examples=30)
@given(st.integers(1, 40 * 512 - 1))
def test_a_truncated_uf2_is_refused(keep):
    data = fake_uf2(MP.marks, 40)
    wrong = problem(MP, data[:keep])
    assert wrong is not None and ("truncated" in wrong or "is not" in wrong), wrong
    if keep % 512 == 0:  # whole blocks, but not all of them
        assert wrong == "is truncated or damaged (block 0 says it is 0 of 40; the file holds %d)" % (keep // 512)
    else:
        assert wrong == "is truncated (%d bytes, not whole 512-byte UF2 blocks)" % keep


def test_a_damaged_block_is_refused():
    data = bytearray(fake_uf2(MP.marks, 40))
    data[512 * 7] ^= 1  # a start magic
    assert problem(MP, bytes(data)) == "is not a UF2 file (block 7, byte 3584, is not a UF2 block)"


def test_the_sha256_when_recorded(monkeypatch):
    import hashlib

    data = fake_uf2(MP.marks, 40)
    monkeypatch.setattr(MP, "sha256", hashlib.sha256(data).hexdigest())
    assert problem(MP, data) is None
    other = fake_uf2(MP.marks, 41)
    assert problem(MP, other) == "is not the file recorded (its sha256 is not %s)" % MP.sha256


def test_the_boot_rom_checks():
    assert problem(ROM, fake_rom()[:-4]) == "is 16380 bytes, not the 16384 of the RP2040's boot ROM"
    b2 = bytearray(fake_rom())
    b2[0x13] = 3  # B2's
    assert problem(ROM, bytes(b2)) == "is not the RP2040's boot ROM B1 (b'Mu\\x01\\x02' is not in it)"


# --- the boot ROM out of its ELF ------------------------------------------------------


def elf(segments):
    """A 32-bit little-endian ARM ELF whose program headers load
    ``segments``, ``[(type, paddr, bytes)]``, each its bytes in the file."""
    header_size, ph_size = 52, 32
    offset = header_size + ph_size * len(segments)
    phdrs, body = b"", b""
    for p_type, paddr, data in segments:
        phdrs += struct.pack("<8I", p_type, offset + len(body), paddr | 0x20000000 * (paddr >= 0x4000), paddr,
                             len(data), len(data), 5, 4)
        body += data
    ident = b"\x7fELF\x01\x01\x01" + bytes(9)
    head = ident + struct.pack("<HHIIIIIHHHHHH", 2, 40, 1, 0, header_size, 0, 0x5000000, header_size, ph_size,
                               len(segments), 40, 0, 0)
    return head + phdrs + body


@settings(max_examples=25)
@given(st.binary(min_size=1, max_size=6000), st.binary(max_size=2000), st.integers(0, 8000))
def test_the_rom_is_the_elfs_segments_by_load_address(text, data, gap):
    at = min(len(text) + gap, 16384 - len(data))
    rom = images.rom_from_elf(elf([(1, 0, text), (1, at, data), (1, 0x20000000, b"ram"), (4, 0x100, b"note")]))
    expected = bytearray(16384)
    expected[:len(text)] = text
    expected[at:at + len(data)] = data
    assert rom == bytes(expected)


def test_an_elf_without_the_rom_is_refused():
    with pytest.raises(ValueError, match="no loadable segment at address 0"):
        images.rom_from_elf(elf([(1, 0x100, b"x")]))
    with pytest.raises(ValueError, match="not a 32-bit little-endian ELF"):
        images.rom_from_elf(b"MZ" + bytes(100))
    with pytest.raises(ValueError, match="runs past the end"):
        images.rom_from_elf(elf([(1, 0, b"x" * 100)])[:-10])


def test_a_folder_with_the_publishers_elf_gets_its_rom(tmp_path, monkeypatch):
    rom = bytearray(fake_rom())
    rom[0x100:0x104] = b"code"
    (tmp_path / "b1.elf").write_bytes(elf([(1, 0, bytes(rom[:0x200])), (1, 0x200, bytes(rom[0x200:]))]))
    monkeypatch.setenv("FIRMWARE_DIR", str(tmp_path))
    path = images.find("bootrom")
    assert path == str(tmp_path / ROM.file)
    assert (tmp_path / ROM.file).read_bytes() == bytes(rom)
    assert sorted(os.listdir(tmp_path)) == ["b1.elf", ROM.file]


def test_micropythons_own_name_is_found_too(tmp_path):
    # As a person downloads it from the page: RPI_PICO-YYYYMMDD-v1.28.0.uf2
    (tmp_path / "RPI_PICO-20260101-v1.28.0.uf2").write_bytes(fake_uf2(MP.marks, 40))
    assert images.find("micropython", str(tmp_path)) == str(tmp_path / "RPI_PICO-20260101-v1.28.0.uf2")


# --- missing and wrong, as the user reads it -------------------------------------------


def test_a_missing_image_is_one_line_naming_file_source_and_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    with pytest.raises(images.ImageMissing) as e:
        images.get("micropython")  # (downloads are off in the tests)
    cache = str(tmp_path / "tactictoe" / "firmware")
    assert str(e.value) == ("RPI_PICO-v1.28.0.uf2 is missing: `make firmware` downloads MicroPython v1.28.0"
                            " (rp2 port, RPI_PICO) (published as RPI_PICO-*-v1.28.0.uf2) from"
                            " https://micropython.org/download/RPI_PICO/ into %s (or put it there by hand)" % cache)
    monkeypatch.setenv("FIRMWARE_DIR", str(tmp_path))
    with pytest.raises(images.ImageMissing) as e:
        images.get("bootrom")
    assert str(e.value) == ("rp2040-bootrom-B1.bin is missing: download the RP2040's boot ROM B1 (published as"
                            " b1.elf) from %s into FIRMWARE_DIR=%s" % (ROM.source, tmp_path))


def report_and_one_line_error(r):
    """``make firmware``'s failure: its report of every image on stdout,
    then one error line on stderr, no traceback."""
    assert r.returncode == 1 and "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


@pytest.mark.parametrize("args", [
    ("uf2", "-o", "x.uf2"),
    ("uf2", "--runtime", "circuitpython", "-o", "x.uf2"),
    ("sim", "--chip", "rp2040", "--headless"),
    ("firmware",),
])
def test_what_needs_a_missing_image_says_so_in_one_line(args, tmp_path, table_files):
    tables = os.path.dirname(table_files[0])
    empty = tmp_path / "firmware"
    empty.mkdir()
    args = [str(tmp_path / a) if a.endswith(".uf2") else a for a in args]
    if args[0] in ("uf2", "sim"):
        args += ["--tables", tables]
    if args[0] == "sim":
        args += ["--flash", str(tmp_path / "f.lfs")]
    r = run_cli(*args, env={"FIRMWARE_DIR": str(empty)})
    line = one_line_error(r) if args[0] != "firmware" else report_and_one_line_error(r)
    assert line.startswith("error: ") and " is missing: download " in line and str(empty) in line, line
    if args[0] == "firmware":  # every image is tried, and each it lacks is listed
        assert r.stdout.splitlines() == ["lacking:  %s (%s)" % (i.file, i.title) for i in images.IMAGES.values()]
        assert line.endswith("(and %d more images, listed above)" % (len(images.IMAGES) - 1)), line
    assert not (tmp_path / "x.uf2").exists()


def test_a_wrong_image_is_named_in_one_line(tmp_path, table_files):
    fake_images(tmp_path)
    (tmp_path / MP.file).write_bytes(fake_uf2(MP.marks, 40)[:-512 * 3])
    line = one_line_error(run_cli("uf2", "--tables", os.path.dirname(table_files[0]), "-o", tmp_path / "x.uf2",
                                  env={"FIRMWARE_DIR": str(tmp_path)}))
    assert line == ("error: %s is truncated or damaged (block 0 says it is 0 of 40; the file holds 37): delete it and"
                    " run `make firmware` (or download it again from %s)" % (tmp_path / MP.file, MP.source))


def test_firmware_dir_must_be_a_folder(tmp_path):
    line = one_line_error(run_cli("firmware", env={"FIRMWARE_DIR": str(tmp_path / "nope")}))
    assert line.startswith("error: FIRMWARE_DIR=%s: no such folder" % (tmp_path / "nope"))


def test_firmware_checks_a_folder_and_prints_the_sha256s(tmp_path):
    import hashlib

    fake_images(tmp_path)
    r = run_cli("firmware", env={"FIRMWARE_DIR": str(tmp_path)})
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout.splitlines() == ["have:     %s (%s)" % (i.file, i.title) for i in images.IMAGES.values()] + \
        ["folder:   %s" % tmp_path]
    r = run_cli("firmware", "--sha256", env={"FIRMWARE_DIR": str(tmp_path)})
    rows = [line.split() for line in r.stdout.splitlines()[:-1]]
    assert rows == [[key, hashlib.sha256((tmp_path / i.file).read_bytes()).hexdigest(), i.file]
                    for key, i in images.IMAGES.items()]


def test_firmware_tries_every_image_and_names_the_one_it_lacks(tmp_path):
    fake_images(tmp_path)
    (tmp_path / MP.file).write_bytes(b"not a uf2")
    r = run_cli("firmware", env={"FIRMWARE_DIR": str(tmp_path)})
    line = report_and_one_line_error(r)
    assert line == ("error: %s is truncated (9 bytes, not whole 512-byte UF2 blocks): delete it and run `make firmware`"
                    " (or download it again from %s)" % (tmp_path / MP.file, MP.source))
    assert r.stdout.splitlines() == [("lacking:  %s (%s)" if i is MP else "have:     %s (%s)") % (i.file, i.title)
                                     for i in images.IMAGES.values()]


# --- downloads, from a local server ---------------------------------------------------


class Server:
    """An HTTP server on 127.0.0.1 answering ``pages`` {path: bytes}; a
    path in ``cut`` sends its Content-Length, then only half, then closes."""

    def __init__(self, pages, cut=()):
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                data = pages.get(self.path)
                if data is None:
                    self.send_error(404)
                    return
                # Recorded before the answer: once it is sent, the client's
                # next request may be served before this thread runs on.
                outer.served.append(self.path)
                self.send_response(200)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data[:len(data) // 2] if self.path in cut else data)

            def log_message(self, *args):
                pass

        self.served = []
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    servers = []

    def start(pages, cut=()):
        servers.append(Server(pages, cut))
        return servers[-1]

    yield start
    for s in servers:
        s.close()


def like(image, **changes):
    """``image`` with other sources (the local server's)."""
    new = images.Image(image.title, image.file, image.source, image.published, image.marks, image.kind,
                       image.link, image.sha256)
    for key, value in changes.items():
        setattr(new, key, value)
    return new


def test_micropython_comes_from_the_link_on_its_page(server, tmp_path):
    data = fake_uf2(MP.marks, 40)
    page = (b'<a href="/resources/firmware/RPI_PICO-20260101-v1.28.0.uf2">v1.28.0 (2026-01-01) .uf2</a>'
            b'<a href="/resources/firmware/RPI_PICO-20260101-v1.28.0.app-bin">not this</a>'
            b'<a href="/resources/firmware/RPI_PICO-20260301-v1.29.0-preview.1.uf2">nor this</a>')
    s = server({"/download/RPI_PICO/": page, "/resources/firmware/RPI_PICO-20260101-v1.28.0.uf2": data})
    lines = []
    path = images.download(like(MP, source=s.url + "/download/RPI_PICO/"), str(tmp_path / "cache"), lines.append)
    assert path == str(tmp_path / "cache" / MP.file)
    assert (tmp_path / "cache" / MP.file).read_bytes() == data
    assert os.listdir(tmp_path / "cache") == [MP.file]
    assert s.served == ["/download/RPI_PICO/", "/resources/firmware/RPI_PICO-20260101-v1.28.0.uf2"]
    assert lines == ["downloading %s: %s, from %s/download/RPI_PICO/" % (MP.file, MP.title, s.url)]


def test_the_boot_rom_is_extracted_from_the_downloaded_elf(server, tmp_path):
    s = server({"/b1.elf": elf([(1, 0, fake_rom())])})
    images.download(like(ROM, source=s.url + "/b1.elf"), str(tmp_path), lambda line: None)
    assert (tmp_path / ROM.file).read_bytes() == fake_rom()
    assert os.listdir(tmp_path) == [ROM.file]


@pytest.mark.parametrize("case", ["cut short", "not found", "wrong file", "no link on the page"])
def test_a_failed_download_is_one_line_and_leaves_nothing(server, tmp_path, case):
    data = fake_uf2(CP.marks, 40)
    name = "/" + CP.file
    if case == "wrong file":
        data = fake_uf2(MP.marks, 40)
    s = server({name: data} if case != "not found" else {}, cut={name} if case == "cut short" else ())
    image = like(CP, source=s.url + name)
    if case == "no link on the page":
        s = server({"/page": b"<html>nothing here</html>"})
        image = like(MP, source=s.url + "/page")
    old = tmp_path / "old"
    old.write_bytes(b"kept")
    with pytest.raises(images.ImageError) as e:
        images.download(image, str(tmp_path), lambda line: None)
    message = str(e.value)
    assert "\n" not in message and image.file in message and str(tmp_path) in message, message
    assert {"cut short": "the connection closed after %d bytes" % (len(data) // 2),
            "not found": "Not Found", "wrong file": "b'CircuitPython 10.2.1' is not in it): nothing was written",
            "no link on the page": "the page links no RPI_PICO-*-v1.28.0.uf2"}[case] in message, message
    assert os.listdir(tmp_path) == ["old"] and old.read_bytes() == b"kept"


def test_an_interrupted_download_leaves_no_debris(server, tmp_path, monkeypatch):
    # Ctrl-C while writing: the temporary file goes, the old one stays.
    s = server({"/" + CP.file: fake_uf2(CP.marks, 40)})
    (tmp_path / CP.file).write_bytes(b"the old one")

    def interrupted(fd, data):
        raise KeyboardInterrupt

    monkeypatch.setattr(images.outputs, "_put", interrupted)
    with pytest.raises(KeyboardInterrupt):
        images.download(like(CP, source=s.url + "/" + CP.file), str(tmp_path), lambda line: None)
    assert os.listdir(tmp_path) == [CP.file] and (tmp_path / CP.file).read_bytes() == b"the old one"


def test_get_downloads_only_when_it_may(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    fetched = []
    monkeypatch.setattr(images, "download", lambda image, where, say=None: fetched.append(image))
    for env in ({"TACTICTOE_NO_DOWNLOAD": "1"}, {"FIRMWARE_DIR": str(tmp_path), "TACTICTOE_NO_DOWNLOAD": "0"}):
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        with pytest.raises(images.ImageMissing):
            images.get("circuitpython-pico")
    assert fetched == []
    monkeypatch.delenv("FIRMWARE_DIR")
    with pytest.raises(images.ImageMissing):  # the stand-in fetched nothing
        images.get("circuitpython-pico")
    assert fetched == [CP]
