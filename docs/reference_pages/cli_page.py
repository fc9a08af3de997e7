"""The page of a command line: a section per command (``## load``), its help, its usage, its
arguments and options, its exit codes."""

from __future__ import annotations

from .command_line import Command, CommandLine, Parameter, Undeclared
from .markdown import code, link, page, paragraphs, table, text

VARIABLES_PAGE = "variables.md"
EXIT_CODES_PAGE = "exit-codes.md"


def cli_page(line: CommandLine, title: str, intro: str) -> str:
    """Every command of ``line``, in ``--help``'s order."""
    commands = list(line.commands())
    declared = set(line.exits)
    stale = declared - {command.name for command in commands}
    if stale:
        raise Undeclared(
            f"{line.prog}: exit codes declared for commands it does not have: {sorted(stale)}"
        )
    summary = table(
        ["Command", "What it does"],
        [[link(code(c.name), "", c.name), text(_first_sentence(c.help))] for c in commands],
    )  # fmt: skip
    head = [f"```\n{line.prog} [OPTIONS] COMMAND [ARGS]...\n```", summary]
    options = line.options()
    if options:
        head.append(f"Options of `{line.prog}` itself:\n\n" + _parameters(options))
    return page(title, intro, [*head, *(_section(command) for command in commands)])


def _section(command: Command) -> str:
    parts = [f"## {command.name}", paragraphs(command.help), f"```\n{command.usage}\n```"]
    parameters = command.parameters()
    if parameters:
        parts.append(_parameters(parameters))
    exits = command.exits()
    parts.append(
        f"Exit codes ([all of them]({EXIT_CODES_PAGE})):\n\n"
        + table(["Code", "When"], [[str(code_), text(why)] for code_, why in exits.items()])
    )
    return "\n\n".join(parts)


def _parameters(parameters: tuple[Parameter, ...]) -> str:
    rows = []
    for parameter in parameters:
        variable = parameter.variable
        rows.append(
            [
                code(parameter.names),
                text(parameter.kind),
                code(parameter.default) if parameter.default is not None else "",
                link(code(variable), VARIABLES_PAGE, variable) if variable else "",
                text(parameter.help),
            ]
        )
    return table(["Argument or option", "Takes", "Default", "Variable", "What it does"], rows)


def _first_sentence(help_text: str) -> str:
    first = help_text.split("\n\n")[0]
    return " ".join(first.split())
