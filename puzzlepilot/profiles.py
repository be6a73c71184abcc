"""List, show or delete calibration profiles stored by name.

    puzzlepilot profiles list
    puzzlepilot profiles show NAME|DIR
    puzzlepilot profiles delete NAME

Profiles are stored under the user's config folder (``PUZZLEPILOT_PROFILES`` overrides it);
any profile folder can also be given by path to ``--profile``.
"""
from __future__ import annotations

import argparse
import json

from calibration import profile as profiles
from puzzlepilot.errors import UsageError
from puzzlepilot.userio import IO
from vision.profile import Profile


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("list", "show", "delete"))
    p.add_argument("name", nargs="?", metavar="NAME|DIR")


def main(args: argparse.Namespace, io: IO) -> int:
    if args.action == "list":
        found = profiles.stored()
        if not found:
            io.out(f"no profiles in {profiles.profiles_dir()}")
        for name, prof in found:
            io.out(f"{name:24} {prof.game:10} {prof.folder}" if isinstance(prof, Profile)
                   else f"{name:24} {'(broken)':10} {prof}")
        return 0
    if not args.name:
        raise UsageError(f"profiles {args.action} needs a NAME")
    if args.action == "show":
        prof = profiles.load(args.name)
        io.out(f"{prof.name} ({prof.game}) in {prof.folder}")
        io.out(json.dumps(prof.data, indent=1, ensure_ascii=False))
        return 0
    io.out(f"deleted {profiles.delete(args.name)}")
    return 0
