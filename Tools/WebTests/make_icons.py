#!/usr/bin/env python3
"""Renders the app's icons (Sources/OffloadWeb/Resources/*.png) from SVG with Chromium.

The home-screen icons of the web app manifest (192 and 512, a maskable 512 whose picture
keeps inside the central 80 % safe zone) and the apple-touch-icon (180). Run again after
changing the drawing below: python3 Tools/WebTests/make_icons.py
"""
import os
import shutil
import sys

from playwright.sync_api import sync_playwright

RESOURCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Sources", "OffloadWeb", "Resources")

# Two photo cards, the back one tilted, with a check: the deck's keep.
CARDS = """
<g transform="translate(256 262)">
  <rect x="-92" y="-122" width="184" height="236" rx="22" fill="#3e63dd" transform="rotate(-12)"/>
  <rect x="-92" y="-122" width="184" height="236" rx="22" fill="#30a46c"/>
  <path d="M-48 -2 L-12 34 L52 -36" fill="none" stroke="#fff" stroke-width="26" stroke-linecap="round" stroke-linejoin="round"/>
</g>"""


def svg(maskable):
    if maskable:  # full bleed; the picture scaled into the safe zone
        return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><rect width="512" height="512" fill="#111418"/>'
                '<g transform="translate(256 256) scale(0.78) translate(-256 -256)">%s</g></svg>' % CARDS)
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><rect width="512" height="512" rx="112" fill="#111418"/>'
            '%s</svg>' % CARDS)


def main():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        for name, size, maskable in (("icon-192.png", 192, False), ("icon-512.png", 512, False),
                                     ("icon-maskable-512.png", 512, True), ("apple-touch-icon.png", 180, True)):
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content('<html><body style="margin:0;background:transparent">'
                             '<div style="width:%dpx;height:%dpx">%s</div></body></html>'
                             % (size, size, svg(maskable).replace("<svg ", '<svg width="%d" height="%d" ' % (size, size))))
            page.screenshot(path=os.path.join(RESOURCES, name), omit_background=True)
            page.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
