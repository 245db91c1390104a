package cli

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/runsvc/runsvc/internal/catalogue"
)

// errorsUsage is the help of `runsvc errors`.
const errorsUsage = `Usage: runsvc errors [--json]

Print the error catalogue: every reason runsvc's errors carry, its code and
whether it is retryable. --json prints errors.json, the machine-readable
catalogue (docs/errors.md explains each reason).
`

// errorsCmd is `runsvc errors [--json]`: it needs no server.
func (a *app) errorsCmd(args []string) error {
	a.cmd = "errors"
	fs := a.flags()
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(a.stdout, errorsUsage)
			return errHelp
		}
		return usagef("%v", err)
	}
	if fs.NArg() > 0 {
		return usagef("errors takes no arguments, got %q", strings.Join(fs.Args(), " "))
	}
	doc := catalogue.Load()
	if a.json {
		_, err := a.stdout.Write(catalogue.JSON(doc))
		return err
	}
	fmt.Fprintf(a.stdout, "runsvc error catalogue %s: %d reasons (domain %s)\n\n", doc.Version, doc.ReasonCount, doc.Domain)
	fmt.Fprintf(a.stdout, "%-26s %-20s %s\n", "REASON", "CODE", "RETRYABLE")
	for _, e := range doc.Reasons {
		fmt.Fprintf(a.stdout, "%-26s %-20s %s\n", e.Reason, e.Code, e.Retryable)
	}
	return nil
}
