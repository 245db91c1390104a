package errdetails

import (
	"reflect"
	"strconv"
	"strings"
	"time"

	codepb "google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/grpc/codes"

	"github.com/runsvc/runsvc/internal/errs"
)

// Entry is one reason of the published error catalogue, read from the
// table: what a client keyed by reason needs to know about it.
type Entry struct {
	Reason string `json:"reason"`
	// Code is the google.rpc.Code name, e.g. "NOT_FOUND": one code a
	// reason.
	Code string `json:"code"`
	// HTTPStatus is the HTTP status the REST surface answers with
	// (AIP-193's for Code).
	HTTPStatus int `json:"httpStatus"`
	// Retryable is "yes" (always RetryInfo) or "no" (never).
	Retryable string `json:"retryable"`
	// DefaultRetryDelaySeconds is the RetryInfo delay when the error names
	// none; 0 for a reason that is never retryable.
	DefaultRetryDelaySeconds float64 `json:"defaultRetryDelaySeconds"`
	// Details are the google.rpc detail types the status carries, ErrorInfo
	// first; RetryInfo is listed when the reason can be retryable.
	Details []string `json:"details"`
	// MetadataKeys are the ErrorInfo metadata keys, always all present.
	MetadataKeys []string `json:"metadataKeys"`
	// MessageTemplate is the message with metadata as "{key}"; BadRequest
	// reasons show their first violation as "{field}: {description}".
	MessageTemplate string `json:"messageTemplate"`
	// ResourceName is the PreconditionFailure subject, ResourceInfo name or
	// QuotaFailure subject template, when the reason has one.
	ResourceType string `json:"resourceType,omitempty"`
	ResourceName string `json:"resourceName,omitempty"`
	Description  string `json:"description"`
	// Domain is the ErrorInfo domain when it is not the server's: the A2A
	// error types' is a2a-protocol.org.
	Domain string `json:"domain,omitempty"`
	// Since is the catalogue version that added the reason.
	Since string `json:"since"`
}

// Catalogue returns every reason of the table, in table order, as the
// published catalogue describes it.
func Catalogue() []Entry {
	out := make([]Entry, 0, len(table))
	for i := range table {
		out = append(out, table[i].entry())
	}
	return out
}

func (r *row) entry() Entry {
	e := Entry{
		Reason:          r.reason,
		Code:            codeName(r.code),
		HTTPStatus:      HTTPStatus(r.code),
		Retryable:       "no",
		Details:         r.detailNames(),
		MetadataKeys:    metadataKeys(r.err),
		MessageTemplate: messageTemplate(r.err),
		ResourceType:    r.subject,
		ResourceName:    r.name,
		Domain:          r.domain,
	}
	if r.retry == always {
		e.Retryable = "yes"
	}
	if r.retry != never {
		e.DefaultRetryDelaySeconds = DefaultRetryDelay.Seconds()
	}
	d := describe(r.reason)
	e.Description, e.Since = d.text, d.since
	return e
}

func codeName(c codes.Code) string {
	return codepb.Code_name[int32(c)]
}

// detailNames lists the detail types a row's statuses carry, in the order
// build appends them.
func (r *row) detailNames() []string {
	names := []string{"ErrorInfo"}
	if r.retry != never {
		names = append(names, "RetryInfo")
	}
	for _, d := range []struct {
		bit  detail
		name string
	}{{precondition, "PreconditionFailure"}, {resource, "ResourceInfo"}, {quota, "QuotaFailure"}, {help, "Help"}, {badRequest, "BadRequest"}} {
		if r.details&d.bit != 0 {
			names = append(names, d.name)
		}
	}
	return names
}

// metadataKeys are the keys errs.Metadata returns for a row's error, in
// field order.
func metadataKeys(proto error) []string {
	t := reflect.TypeOf(proto).Elem()
	keys := []string{}
	for i := 0; i < t.NumField(); i++ {
		if k, ok := t.Field(i).Tag.Lookup("meta"); ok {
			keys = append(keys, k)
		}
	}
	return keys
}

// templateBase is where numeric placeholders start: a value no real
// message contains, replaced by "{key}" after formatting.
const templateBase = 7770001

// messageTemplate formats a row's error with each metadata field set to a
// placeholder, so the template is the error's own Error(), never a copy.
func messageTemplate(proto error) string {
	v := reflect.New(reflect.TypeOf(proto).Elem())
	s := v.Elem()
	var sentinels []string // formatted sentinel, then "{key}"
	for i := 0; i < s.NumField(); i++ {
		key, ok := s.Type().Field(i).Tag.Lookup("meta")
		if !ok {
			continue
		}
		if sentinel := placeholder(s.Field(i), key, templateBase+i); sentinel != "" {
			sentinels = append(sentinels, sentinel, "{"+key+"}")
		}
	}
	msg := v.Interface().(error).Error()
	for i := 0; i < len(sentinels); i += 2 {
		msg = strings.ReplaceAll(msg, sentinels[i]+".000000", sentinels[i+1])
		msg = strings.ReplaceAll(msg, sentinels[i], sentinels[i+1])
	}
	return msg
}

// templateTime is the placeholder of time fields, as messages format it.
var templateTime = time.Date(2777, 7, 7, 7, 7, 7, 0, time.UTC)

// placeholder sets field f to "{key}", or to a sentinel value when it is
// not a string, returning the sentinel as formatted for replacing.
func placeholder(f reflect.Value, key string, n int) string {
	switch {
	case f.Type() == reflect.TypeOf(time.Duration(0)):
		f.SetInt(int64(n) * int64(time.Second))
		return strconv.Itoa(n)
	case f.Type() == reflect.TypeOf(time.Time{}):
		f.Set(reflect.ValueOf(templateTime))
		return templateTime.Format(time.RFC3339)
	}
	switch f.Kind() {
	case reflect.String:
		f.SetString("{" + key + "}")
	case reflect.Int, reflect.Int32, reflect.Int64:
		f.SetInt(int64(n))
		return strconv.Itoa(n)
	case reflect.Float64:
		f.SetFloat(float64(n))
		return strconv.Itoa(n)
	case reflect.Slice:
		if f.Type().Elem().Kind() == reflect.String {
			f.Set(reflect.ValueOf([]string{"{" + key + "}"}))
		} else if f.Type().Elem() == reflect.TypeOf(errs.FieldViolation{}) {
			f.Set(reflect.ValueOf([]errs.FieldViolation{{Field: "{field}", Description: "{description}"}}))
		}
	}
	return ""
}
