package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// globalFlags registers the flags every command takes, before or after
// its name.
func (a *app) globalFlags(fs *flag.FlagSet) {
	fs.Func("addr", "runsvc's gRPC address `HOST:PORT` (env RUNSVC_ADDR, default "+DefaultAddr+")", func(v string) error {
		if v == "" {
			return errors.New("must not be empty")
		}
		a.addr, a.addrSet = v, true
		return nil
	})
	fs.BoolVar(&a.json, "json", a.json, "print protojson, one object per line, and errors as JSON")
	fs.DurationVar(&a.timeout, "timeout", a.timeout, "how long one call may take, a `DURATION`; 0 means no limit")
	a.securityFlags(fs)
}

// flags returns the flag set of the current command, holding the global
// flags too.
func (a *app) flags() *flag.FlagSet {
	fs := flag.NewFlagSet("runsvc "+a.cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	a.globalFlags(fs)
	return fs
}

// parse parses a command's flags, which may come before, between or after
// its positional arguments ("--" ends the flags), and checks the number of
// positional arguments.
func (a *app) parse(fs *flag.FlagSet, args []string, minArgs, maxArgs int) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				a.printUsage(fs)
				return nil, errHelp
			}
			return nil, flagError(fs, err)
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		if len(rest) == 0 {
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	switch {
	case len(pos) < minArgs:
		return nil, usagef("%s needs %s", a.cmd, a.entry.args)
	case len(pos) > maxArgs:
		return nil, usagef("unexpected argument %q", pos[maxArgs])
	}
	return pos, nil
}

func (a *app) printUsage(fs *flag.FlagSet) {
	c := a.entry
	fmt.Fprintf(a.stdout, "Usage: runsvc %s [flags] %s\n\n%s.\n", a.cmd, c.args, upperFirst(c.summary))
	var own, global []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if globalFlag[f.Name] {
			global = append(global, f)
		} else {
			own = append(own, f)
		}
	})
	if len(own) > 0 {
		fmt.Fprintf(a.stdout, "\nFlags:\n")
		a.printFlags(own)
	}
	fmt.Fprintf(a.stdout, "\nGlobal flags:\n")
	a.printFlags(global)
}

var globalFlag = map[string]bool{"addr": true, "json": true, "timeout": true, "tls": true, "ca": true, "cert": true, "key": true, "token": true}

func (a *app) printFlags(flags []*flag.Flag) { printFlags(a.stdout, flags, "") }

// printFlags writes one "--name VALUE" line (a one-letter flag as "-o
// VALUE") and one indented usage line per flag, the usage ending with the
// flag's environment variable (when envPrefix is not empty) and its
// default.
func printFlags(w io.Writer, flags []*flag.Flag, envPrefix string) {
	for _, f := range flags {
		name, use := flag.UnquoteUsage(f)
		if name == "value" {
			name = ""
		}
		dashes := "--"
		if len(f.Name) == 1 {
			dashes = "-"
		}
		fmt.Fprintf(w, "  %s%s", dashes, f.Name)
		if name != "" {
			fmt.Fprintf(w, " %s", name)
		}
		fmt.Fprintf(w, "\n        %s", use)
		var notes []string
		if envPrefix != "" {
			notes = append(notes, "env "+EnvName(envPrefix, f.Name))
		}
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "0s" {
			notes = append(notes, "default "+f.DefValue)
		}
		if len(notes) > 0 {
			fmt.Fprintf(w, " (%s)", strings.Join(notes, ", "))
		}
		fmt.Fprintln(w)
	}
}

// stringList is a flag that may be repeated or hold a comma-separated list.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}
