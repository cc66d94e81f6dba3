#!/usr/bin/env python3
"""topocoll-plan --svg: the pictures of the papers' schedules are well-formed SVG with one
<line class="message"> per message of the schedule (as --format json counts them), the
network's strip where --network is given, and a headless browser (Debian's chromium) renders
each to a PNG that is not blank.

Usage: plan_svg_check.py TOPOCOLL_PLAN PLATFORMS_DIR WORK_DIR
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib

SVG = "{http://www.w3.org/2000/svg}"


def fail(message):
    print("plan_svg_check: FAILED: " + message)
    sys.exit(1)


def png_colours(path, most=64):
    """The distinct colours of a PNG (8-bit RGB or RGBA, not interlaced), up to `most`."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(path + " is not a PNG")
    at, idat, header = 8, b"", None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour_type, _, _, interlace = header
    if depth != 8 or colour_type not in (2, 6) or interlace:
        fail("%s: a PNG of depth %d, colour type %d, interlace %d is not read here" % (path, depth, colour_type, interlace))
    channels = 3 if colour_type == 2 else 4
    raw, stride = zlib.decompress(idat), width * channels
    previous, colours, at = bytearray(stride), set(), 0
    for _ in range(height):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, up_left = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else up_left)) & 0xFF
        for x in range(0, stride, channels * 7):
            colours.add(bytes(line[x:x + 3]))
        if len(colours) >= most:
            break
        previous = line
    return colours


def main():
    plan, platforms, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    cases = [
        ("lg", ["--op", "alltoall", "-a", "lg", "-t", "clusters:3,5", "-b", "1024"], False),
        ("mlfm", ["--op", "alltoall", "-a", "mlfm", "-t", os.path.join(platforms, "mlfm-d3-32.topology.json"),
                  "--hostfile", os.path.join(platforms, "mlfm-d3-32-2-3-2.hosts"), "--np", "12", "-b", "4096",
                  "--network", os.path.join(platforms, "mlfm-d3-32.xml")], True),
        ("topo", ["--op", "gather", "-a", "topo", "-t", os.path.join(platforms, "ib-switch-tree.topology.json"),
                  "-b", "1024"], False),
    ]
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        fail("no headless browser (chromium): scripts/install-deps.sh installs it")
    for name, arguments, with_network in cases:
        svg = os.path.join(work, name + ".svg")
        if os.path.exists(svg):
            os.remove(svg)
        run = subprocess.run([plan, "--format", "json", "--svg", svg] + arguments, capture_output=True, text=True)
        if run.returncode != 0:
            fail("%s: topocoll-plan exited %d: %s" % (name, run.returncode, run.stderr))
        messages = json.loads(run.stdout)["messages"]
        try:
            root = ET.parse(svg).getroot()
        except ET.ParseError as e:
            fail("%s: not well-formed XML: %s" % (name, e))
        if root.tag != SVG + "svg":
            fail("%s: the root element is %s, not svg" % (name, root.tag))
        drawn = [e for e in root.iter(SVG + "line") if e.get("class") == "message"]
        if len(drawn) != messages:
            fail("%s: %d message arrows for %d messages" % (name, len(drawn), messages))
        if any(e.find(SVG + "title") is None for e in drawn):
            fail("%s: a message arrow without its title" % name)
        loads = [e for e in root.iter(SVG + "rect") if e.get("class") == "link-load"]
        if with_network and not loads:
            fail("%s: --network given, but no link is shaded" % name)
        if not with_network and loads:
            fail("%s: links shaded without --network" % name)
        width, height = int(float(root.get("width"))), int(float(root.get("height")))
        png = os.path.join(work, name + ".png")
        if os.path.exists(png):
            os.remove(png)
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        "--screenshot=" + png, "--window-size=%d,%d" % (width, height), "file://" + os.path.abspath(svg)],
                       capture_output=True, timeout=120)
        if not os.path.exists(png):
            fail("%s: %s wrote no screenshot" % (name, browser))
        colours = png_colours(png)
        if len(colours) < 4:
            fail("%s: the rendered picture is blank (%d colours)" % (name, len(colours)))
        print("%s: %d messages drawn, %d shaded link-rounds, rendered with %d+ colours" %
              (name, messages, len(loads), len(colours)))
    print("plan_svg_check: every picture passed")


main()
