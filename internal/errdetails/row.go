package errdetails

import (
	"strings"

	"google.golang.org/grpc/codes"

	"github.com/runsvc/runsvc/internal/errs"
)

// detail is a set of standard detail types a reason carries besides
// ErrorInfo (and RetryInfo, which retry decides).
type detail uint8

const (
	badRequest detail = 1 << iota
	precondition
	resource
	quota
	help
)

// retryRule says when a reason carries RetryInfo.
type retryRule uint8

const (
	never  retryRule = iota // never: the pushback trailer is -1
	always                  // always, with the error's delay or DefaultRetryDelay
)

// row is one line of the table.
type row struct {
	err     error      // a zero value of the typed error it maps
	reason  string     // ErrorInfo.reason
	code    codes.Code // the one code of the reason
	details detail
	retry   retryRule
	subject string // PreconditionFailure.type or ResourceInfo.resource_type
	name    string // template for the subject / resource name
	domain  string // ErrorInfo.domain when not the Mapper's (A2A's)
}

var (
	byKind   = map[string]*row{}
	byReason = map[string]*row{}
)

func init() {
	for i := range table {
		r := &table[i]
		kind := errs.Kind(r.err)
		if kind == "" {
			panic("errdetails: table row for a type errs does not know: " + r.reason)
		}
		if _, dup := byReason[r.reason]; dup {
			panic("errdetails: duplicate reason " + r.reason)
		}
		byKind[kind] = r
		byReason[r.reason] = r
	}
}

// expand fills "{key}" placeholders from metadata.
func expand(template string, meta map[string]string) string {
	if !strings.Contains(template, "{") {
		return template
	}
	var b strings.Builder
	for {
		open := strings.IndexByte(template, '{')
		if open < 0 {
			b.WriteString(template)
			return b.String()
		}
		end := strings.IndexByte(template[open:], '}')
		if end < 0 {
			b.WriteString(template)
			return b.String()
		}
		b.WriteString(template[:open])
		b.WriteString(meta[template[open+1:open+end]])
		template = template[open+end+1:]
	}
}
