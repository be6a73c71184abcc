"""A sixth game that exists only in the tests: a row of lamps to switch on, registered
with one ``Game`` entry (``tests/cli/test_registry.py``) to show that the registry alone
makes a game known to every command. Its parts are as small as a part can be."""
