"""Window lookup on X11 with python-xlib (installed with pyautogui).

Walks the whole window tree reading ``_NET_WM_NAME`` / ``WM_NAME`` rather than asking the
window manager (EWMH client lists are empty without one, as in CI); positions come from
``translate_coords`` so a reparenting window manager's frame is not counted in.
"""
from __future__ import annotations

from vision.capture import CaptureError, Rect, WindowInfo, xlib_quiet


class XlibFinder:
    """Finds mapped windows by title (or program) and follows their client rectangle."""

    def __init__(self) -> None:
        from Xlib import X, display, error

        self._X = X
        self._errors = (error.BadWindow, error.BadDrawable, error.BadMatch)
        try:
            with xlib_quiet():
                self._display = display.Display()
        except Exception as exc:  # python-xlib raises several unrelated types here
            raise CaptureError(f"cannot open the X display: {exc}") from None
        self._root = self._display.screen().root
        self._net_wm_name = self._display.intern_atom("_NET_WM_NAME")
        self._utf8 = self._display.intern_atom("UTF8_STRING")

    def _title(self, window: object) -> str:
        prop = window.get_full_property(self._net_wm_name, self._utf8)
        if prop is not None and prop.value:
            value = prop.value
            return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
        name = window.get_wm_name()
        if isinstance(name, bytes):
            return name.decode("latin-1")
        return name or ""

    @staticmethod
    def _program(window: object) -> str:
        """The window's program and class names (``WM_CLASS``), lower case: a game whose
        title names only the level on show (GNOME Klotski's) is found by its program."""
        return " ".join(window.get_wm_class() or ()).lower()

    def _client_rect(self, window: object) -> Rect:
        geometry = window.get_geometry()
        origin = self._root.translate_coords(window, 0, 0)
        return Rect(int(origin.x), int(origin.y), int(geometry.width), int(geometry.height))

    def find(self, title: str) -> list[WindowInfo]:
        wanted = title.lower()
        found: list[WindowInfo] = []
        stack = list(self._root.query_tree().children)
        while stack:
            window = stack.pop()
            try:
                if window.get_attributes().map_state != self._X.IsViewable:
                    continue
                name = self._title(window)
                if name and (wanted in name.lower() or wanted in self._program(window)):
                    rect = self._client_rect(window)
                    if rect.width > 1 and rect.height > 1:
                        found.append((name, rect, int(window.id)))
                stack.extend(window.query_tree().children)
            except self._errors:
                continue  # the window went away during the walk
        return found

    def rect(self, wid: int) -> Rect:
        window = self._window(wid)
        try:
            if window.get_attributes().map_state != self._X.IsViewable:
                raise CaptureError(f"window 0x{wid:x} is no longer shown")
            return self._client_rect(window)
        except self._errors:
            raise CaptureError(f"window 0x{wid:x} was closed") from None

    def title(self, wid: int) -> str:
        try:
            return self._title(self._window(wid))
        except self._errors:
            raise CaptureError(f"window 0x{wid:x} was closed") from None

    def program(self, wid: int) -> str:
        try:
            return self._program(self._window(wid))
        except self._errors:
            raise CaptureError(f"window 0x{wid:x} was closed") from None

    def dialogs(self, wid: int) -> list[WindowInfo]:
        """The shown windows that say they belong to the window (``WM_TRANSIENT_FOR``)."""
        found: list[WindowInfo] = []
        for info in self.find(""):
            try:
                owner = self._window(info[2]).get_wm_transient_for()
            except self._errors:
                continue    # gone meanwhile
            if owner is not None and int(owner.id) == wid:
                found.append(info)
        return found

    def _window(self, wid: int) -> object:
        return self._display.create_resource_object("window", wid)

    def _ancestors(self, window: object) -> list[int]:
        """The ids of ``window`` and every window above it, up to the root."""
        chain: list[int] = []
        while window is not None and int(window.id) not in (0, int(self._root.id)):
            chain.append(int(window.id))
            window = window.query_tree().parent
        return chain

    def focus(self, wid: int) -> None:
        """Raise the window and give it the keyboard focus: through the window manager
        (``_NET_ACTIVE_WINDOW``) when one runs, and directly, which works without one."""
        from Xlib import error, protocol

        window = self._window(wid)
        # Requests without a reply fail later, through a handler: catch them, or
        # python-xlib prints them on stderr.
        failed = error.CatchError()
        active = self._display.intern_atom("_NET_ACTIVE_WINDOW")
        event = protocol.event.ClientMessage(window=window, client_type=active,
                                             data=(32, [2, self._X.CurrentTime, 0, 0, 0]))
        self._root.send_event(event, event_mask=self._X.SubstructureRedirectMask | self._X.SubstructureNotifyMask,
                              onerror=failed)
        window.configure(stack_mode=self._X.Above, onerror=failed)
        window.set_input_focus(self._X.RevertToParent, self._X.CurrentTime, onerror=failed)
        self._display.sync()
        if failed.get_error() is not None:
            raise CaptureError(f"window 0x{wid:x} cannot take the focus (closed or not shown)")

    def has_focus(self, wid: int) -> bool:
        """Whether the keyboard focus is on the window or inside it."""
        try:
            focus = self._display.get_input_focus().focus
            return not isinstance(focus, int) and wid in self._ancestors(focus)
        except self._errors:
            return False

    def under_pointer(self, wid: int) -> bool:
        """Whether the window is the one the pointer is over (not covered by another,
        not closed): the chain of windows under the pointer, top-level down, holds it."""
        try:
            window, chain = self._root, []
            while True:
                child = window.query_pointer().child
                if isinstance(child, int) or int(child.id) == 0:
                    return wid in chain
                chain.append(int(child.id))
                window = child
        except self._errors:
            return False

    def close(self) -> None:
        self._display.close()
