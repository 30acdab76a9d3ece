"""Standard input as the programs read it (``sim.console.input_lines``: line by line, each bounded),
typed by a person who then presses Ctrl-C."""

import io


class InterruptedInput(io.StringIO):
    """Standard input on which the person types ``lines`` and then presses Ctrl-C."""

    def readline(self, size=-1):
        line = super().readline(size)
        if not line:
            raise KeyboardInterrupt
        return line
