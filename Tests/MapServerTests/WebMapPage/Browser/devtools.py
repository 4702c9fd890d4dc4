"""The DevTools-protocol plumbing the browser tests' drivers share: a headless Chromium on
--remote-debugging-pipe (JSON messages ending in NUL; Chromium reads fd 3 and writes fd 4, so no
free port is needed), a page with real input events (Input.dispatch*), and the record of console
errors, exceptions and failed loads. WebGL runs on SwiftShader, Chromium's CPU renderer, so the
MapLibre GL JS maps draw without a GPU.
"""
import base64
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time


class Browser:
    def __init__(self, executable, width, height, extra_args=()):
        self.profile = tempfile.mkdtemp(prefix="openmapkit-chromium-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def wire_pipes():
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        args = [executable, "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-dev-shm-usage",
                # WebGL on the CPU: ANGLE over SwiftShader (no GPU here, none needed).
                "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-sync",
                "--disable-background-networking", "--disable-component-update", "--mute-audio",
                "--hide-scrollbars", "--force-color-profile=srgb", "--font-render-hinting=none",
                f"--user-data-dir={self.profile}", f"--window-size={width},{height}", *extra_args, "about:blank"]
        # Only what Chromium needs from the environment: after the window tests the test process
        # still names their virtual X display (DISPLAY, gone by then), and headless Chromium's
        # ANGLE then fails to make a WebGL context ("BindToCurrentSequence failed").
        keep = ("PATH", "HOME", "TMPDIR", "LANG", "LANGUAGE", "LC_ALL", "TZ", "USER", "LOGNAME", "SHELL")
        environment = {k: v for k, v in os.environ.items() if k in keep or k.startswith(("LC_", "FONTCONFIG"))}
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, pass_fds=(3, 4), preexec_fn=wire_pipes, env=environment)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.next_id = 0
        self.lock = threading.Condition()
        self.replies = {}
        self.events = []
        self.closed = False
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    def _drain_stderr(self):
        self.stderr_tail = b""
        for line in self.process.stderr:
            self.stderr_tail = (self.stderr_tail + line)[-4000:]

    def _read(self):
        buffer = b""
        while True:
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                with self.lock:
                    self.closed = True
                    self.lock.notify_all()
                return
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                with self.lock:
                    if "id" in message:
                        self.replies[message["id"]] = message
                    else:
                        self.events.append(message)
                    self.lock.notify_all()

    def send(self, method, params=None, session=None, timeout=30):
        with self.lock:
            self.next_id += 1
            ident = self.next_id
        message = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        with self.lock:
            while ident not in self.replies:
                if self.closed:
                    raise RuntimeError(f"Chromium exited during {method}: {self.stderr_tail.decode(errors='replace')[-800:]}")
                remaining = deadline - time.time()
                if remaining <= 0:
                    raise RuntimeError(f"no answer to {method} within {timeout} s")
                self.lock.wait(remaining)
            reply = self.replies.pop(ident)
        if "error" in reply:
            raise RuntimeError(f"{method} failed: {reply['error']}")
        return reply.get("result", {})

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


class Page:
    def __init__(self, browser, width, height):
        self.browser = browser
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable")
        self.resize(width, height, 1, False)

    def call(self, method, params=None, timeout=30):
        return self.browser.send(method, params, session=self.session, timeout=timeout)

    def resize(self, width, height, scale, mobile):
        self.width, self.height = width, height
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})

    def evaluate(self, expression, timeout=30):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True}, timeout)
        if "exceptionDetails" in result:
            raise RuntimeError(f"evaluating {expression[:80]!r}: {result['exceptionDetails'].get('text')} "
                               f"{result['exceptionDetails'].get('exception', {}).get('description', '')}")
        return result["result"].get("value")

    def wait_for(self, expression, timeout, what):
        deadline = time.time() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.time() > deadline:
                raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
            time.sleep(0.1)

    def wait_idle(self, timeout=40):
        # Idle twice in a row, so a frame that is about to request tiles is not mistaken for the end.
        deadline = time.time() + timeout
        streak = 0
        while streak < 3:
            if time.time() > deadline:
                raise TimeoutError(f"map not idle after {timeout} s: {self.evaluate('JSON.stringify(openMapKit.tiles)')}")
            streak = streak + 1 if self.evaluate("window.openMapKit ? openMapKit.idle : false") else 0
            time.sleep(0.1)

    def mouse(self, kind, x, y, button="left", buttons=1, **extra):
        params = {"type": kind, "x": x, "y": y, "button": button, "buttons": buttons, "pointerType": "mouse"}
        params.update(extra)
        self.call("Input.dispatchMouseEvent", params)

    def click(self, x, y):
        self.mouse("mouseMoved", x, y, button="none", buttons=0)
        self.mouse("mousePressed", x, y, clickCount=1)
        self.mouse("mouseReleased", x, y, buttons=0, clickCount=1)

    def click_selector(self, selector):
        """Clicks the middle of the element once it is visible and has stopped moving (a picture
        loading above it, as a place card's Look Around preview does, shifts it: a click computed
        before the shift lands on something else)."""
        locate = f"""(() => {{ const e = document.querySelector({json.dumps(selector)});
            if (!e || e.hidden || e.offsetParent === null) return null;
            const r = e.getBoundingClientRect(); return {{x: r.left + r.width / 2, y: r.top + r.height / 2}}; }})()"""
        box = self.wait_for(locate, 10, f"{selector} to be visible")
        deadline = time.time() + 10
        while time.time() < deadline:
            time.sleep(0.15)
            again = self.wait_for(locate, 10, f"{selector} to be visible")
            if again == box:
                break
            box = again
        self.click(box["x"], box["y"])

    def drag(self, start, end, steps=12, button="left", buttons=1, delay=0.016):
        self.mouse("mouseMoved", start[0], start[1], button="none", buttons=0)
        self.mouse("mousePressed", start[0], start[1], button=button, buttons=buttons, clickCount=1)
        for i in range(1, steps + 1):
            x = start[0] + (end[0] - start[0]) * i / steps
            y = start[1] + (end[1] - start[1]) * i / steps
            self.mouse("mouseMoved", x, y, button=button, buttons=buttons)
            time.sleep(delay)
        self.mouse("mouseReleased", end[0], end[1], button=button, buttons=0, clickCount=1)

    def key(self, key, code, keycode, text=None, modifiers=0):
        down = {"type": "keyDown" if text else "rawKeyDown", "key": key, "code": code,
                "windowsVirtualKeyCode": keycode, "modifiers": modifiers}
        if text:
            down["text"] = text
        self.call("Input.dispatchKeyEvent", down)
        self.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": code,
                                             "windowsVirtualKeyCode": keycode, "modifiers": modifiers})

    def type_text(self, text):
        for ch in text:
            self.call("Input.insertText", {"text": ch})
            time.sleep(0.03)

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        return path


def problems(browser):
    """Console errors, uncaught exceptions and failed loads seen so far, as readable lines."""
    found = []
    with browser.lock:
        events = list(browser.events)
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            found.append("exception: " + (details.get("exception", {}).get("description") or details.get("text", "")))
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            found.append("console.error: " + " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            found.append(f"{entry.get('source')}: {entry.get('text')} {entry.get('url', '')}".strip())
    return found


def session(args, record, steps, expected=lambda problem: False, browser_args=()):
    """Opens a 1200 x 800 page and runs `steps(page, shot)`; whatever happens, records the
    screenshots taken and the problems seen (less the `expected` ones) and closes the browser.
    `browser_args` are extra Chromium switches (such as --disable-3d-apis: no WebGL)."""
    os.makedirs(args.out, exist_ok=True)
    browser = Browser(args.chromium, 1200, 800, browser_args)
    record["screenshots"] = {}
    try:
        page = Page(browser, 1200, 800)
        shot = lambda name: record["screenshots"].__setitem__(name, page.screenshot(os.path.join(args.out, f"{name}.png")))
        steps(page, shot)
    finally:
        record["problems"] = [p for p in problems(browser) if not expected(p)]
        browser.close()
