package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
)

// maxExportLine bounds one line of an export file: a Record is at most a
// few MiB (inputs and tool outputs are bounded well below this).
const maxExportLine = 64 << 20

func (a *app) runDelete(ctx context.Context, args []string) error {
	fs := a.flags()
	interrupt := fs.Bool("interrupt", false, "interrupt an active Run first and delete it once settled, instead of refusing")
	spec := fs.String("spec", "", "delete every Run of this `SPEC` instead of one Run (give no RUN_ID)")
	thread := fs.String("thread", "", "delete every Run of this `THREAD` and the thread instead of one Run (give no RUN_ID)")
	pos, err := a.parse(fs, args, 0, 1)
	if err != nil {
		return err
	}
	req := &runsvcv1.DeleteRunRequest{Interrupt: *interrupt, Spec: *spec, ThreadId: *thread}
	switch given := len(pos) + min(len(*spec), 1) + min(len(*thread), 1); {
	case given > 1:
		return usagef("give only one of RUN_ID, --spec and --thread")
	case len(pos) == 1:
		req.RunId = pos[0]
	case given == 0:
		return usagef("run delete needs a RUN_ID, or --spec SPEC for every Run of a Spec, or --thread THREAD for a thread")
	}
	if err := a.connect(); err != nil {
		return err
	}
	resp, err := unary(ctx, a, interruptGrace(*interrupt), a.runs.DeleteRun, req)
	if err != nil {
		return a.deleteHint(err, req)
	}
	if a.json {
		return a.printJSON(resp)
	}
	switch {
	case req.RunId != "":
		fmt.Fprintf(a.stdout, "deleted run %s\n", req.RunId)
	case req.ThreadId != "":
		fmt.Fprintf(a.stdout, "deleted thread %s and its %d runs\n", req.ThreadId, resp.GetDeletedCount())
	default:
		fmt.Fprintf(a.stdout, "deleted %d runs of spec %s\n", resp.GetDeletedCount(), req.Spec)
	}
	return nil
}

// interruptGrace is how much longer than --timeout a delete may take when
// it first interrupts Runs and waits for them to settle.
func interruptGrace(interrupt bool) time.Duration {
	if interrupt {
		return 15 * time.Second
	}
	return 0
}

// deleteHint adds the command that deletes an active Run anyway.
func (a *app) deleteHint(err error, req *runsvcv1.DeleteRunRequest) error {
	st, ok := status.FromError(err)
	if !ok || errdetails.ClassifyStatus(st.Proto()).Reason != "RUN_NOT_SETTLED" {
		return err
	}
	target := shellQuote(req.RunId)
	switch {
	case req.ThreadId != "":
		target = "--thread " + shellQuote(req.ThreadId)
	case req.RunId == "":
		target = "--spec " + shellQuote(req.Spec)
	}
	return &hintedError{err: err, hint: "to interrupt it and delete it: " + a.suggestion("run delete "+target+" --interrupt")}
}

func (a *app) runExport(ctx context.Context, args []string) error {
	fs := a.flags()
	out := fs.String("o", "-", "write the export to `FILE` (- for stdout); the file must not exist")
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if err := a.connect(); err != nil {
		return err
	}
	w, finish, err := exportTarget(*out, a.stdout)
	if err != nil {
		return err
	}
	stream, err := a.runs.ExportRun(ctx, &runsvcv1.ExportRunRequest{RunId: pos[0]})
	if err == nil {
		err = copyExport(stream, w)
	}
	if ferr := finish(err); err == nil {
		err = ferr
	}
	if err != nil {
		return streamEnded(ctx, "export", err)
	}
	return nil
}

// exportTarget opens where an export goes; finish closes it, and removes
// a file that an export that failed left half written.
func exportTarget(path string, stdout io.Writer) (*bufio.Writer, func(error) error, error) {
	if path == "-" {
		w := bufio.NewWriter(stdout)
		return w, func(error) error { return w.Flush() }, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, nil, &clientError{code: codes.InvalidArgument, msg: err.Error()}
	}
	w := bufio.NewWriter(f)
	return w, func(failed error) error {
		err := errors.Join(w.Flush(), f.Close())
		if failed != nil || err != nil {
			_ = os.Remove(path)
		}
		return err
	}, nil
}

func copyExport(stream interface {
	Recv() (*runsvcv1.ExportRunResponse, error)
}, w io.Writer) error {
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := io.WriteString(w, resp.GetLine()+"\n"); err != nil {
			return err
		}
	}
}

func (a *app) runImport(ctx context.Context, args []string) error {
	fs := a.flags()
	pos, err := a.parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	in := a.stdin
	if pos[0] != "-" {
		f, err := os.Open(pos[0])
		if err != nil {
			return usagef("%v", err)
		}
		defer f.Close()
		in = f
	}
	if err := a.connect(); err != nil {
		return err
	}
	if a.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, a.timeout)
		defer cancel()
	}
	stream, err := a.runs.ImportRun(ctx)
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), maxExportLine)
	for sc.Scan() {
		if err := stream.Send(&runsvcv1.ImportRunRequest{Line: sc.Text()}); err != nil {
			break // the server's answer says why
		}
	}
	if err := sc.Err(); err != nil {
		return usagef("reading %s: %v", pos[0], err)
	}
	resp, err := stream.CloseAndRecv()
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp)
	}
	verb := "imported"
	if !resp.GetCreated() {
		verb = "already imported"
	}
	fmt.Fprintf(a.stdout, "%s run %s (%s)\n", verb, resp.GetRun().GetRunId(), stateName(resp.GetRun().GetState()))
	return nil
}
