"""Solutions on the screen: per-game planners (``overlay/<game>.py``: ``plan`` turns a
solution into screen actions, ``hints`` into drawings), the drawing back-ends, the hint
overlay window and the pyautogui driver."""
