"""`nimmax engine`: the engine protocol on stdin and stdout (docs/ENGINE.md), for other programs."""

from __future__ import annotations

from nimmax.cli.root import app


@app.command("engine")
def engine_command() -> None:
    """Speak the engine protocol on stdin/stdout, one command a line, for programs that drive
    nimmax.

    Commands: game WORDS, position start|P, moves M..., go [time S] [depth N] [nodes N] [infinite],
    stop, legal, isready, quit; answers: info ..., bestmove M value V, legal ..., readyok, error
    .... Bad input gets an error line and the engine goes on; the end of input ends it. See
    docs/ENGINE.md. [bold]Example[/bold]: [cyan]printf 'game nim 2 3 5\\ngo\\nquit\\n' | nimmax
    engine[/cyan]
    """
    import io
    import sys

    from nimmax.commands.engine import serve

    # bytes that are not UTF-8 are an error line, not the end
    raw = getattr(sys.stdin, "buffer", None)
    lines = (
        io.TextIOWrapper(raw, encoding="utf-8", errors="replace") if raw is not None else sys.stdin
    )

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    serve(iter(lines.readline, ""), write)
