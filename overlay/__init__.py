"""Solutions on the screen: per-game planners (``overlay/<game>.py``: ``plan`` turns a
solution into screen actions, ``hints`` into drawings), the drawing back-ends, the hint
surfaces (``window.py``; each platform's see-through part in ``surface_x11.py`` and
``surface_tk.py``, chosen in ``surface.py``) and the pyautogui driver (``driver.py``)."""
