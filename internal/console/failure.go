package console

import (
	"sort"

	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/runsvc/runsvc/internal/errdetails"
)

// failureView is a google.rpc.Status as the console shows it: what a
// client keyed by reason reads (errdetails.ClassifyStatus) and every
// detail, with the link to the reason's catalogue entry.
type failureView struct {
	Code, Reason, Domain, Message string
	Retryable                     bool
	RetryDelay                    string
	Metadata                      []pair
	Violations                    []pair // BadRequest: field, description
	Quota                         []pair // QuotaFailure: subject, description
	Preconditions                 []triple
	Resources                     []triple
	Help                          []pair // description, URL
	Other                         []string
}

// pair and triple are rows of a detail's table.
type pair struct{ A, B string }
type triple struct{ A, B, C string }

// Link is the reason's entry in the console's catalogue page.
func (f *failureView) Link() string {
	if f.Reason == "" {
		return "/errors"
	}
	return "/errors#" + f.Reason
}

// failureOf reads a status; nil for none or OK.
func failureOf(st *spb.Status) *failureView {
	if st == nil || codes.Code(st.GetCode()) == codes.OK {
		return nil
	}
	c := errdetails.ClassifyStatus(st)
	f := &failureView{Code: c.Code.String(), Reason: c.Reason, Domain: c.Domain, Message: c.Message, Retryable: c.Retryable}
	if c.Retryable {
		f.RetryDelay = duration(c.RetryDelay)
	}
	for k, v := range c.Metadata {
		f.Metadata = append(f.Metadata, pair{k, v})
	}
	sort.Slice(f.Metadata, func(i, j int) bool { return f.Metadata[i].A < f.Metadata[j].A })
	for _, a := range st.GetDetails() {
		m, err := a.UnmarshalNew()
		if err != nil {
			f.Other = append(f.Other, a.GetTypeUrl())
			continue
		}
		f.detail(m)
	}
	return f
}

// detail adds one detail message to the view.
func (f *failureView) detail(m proto.Message) {
	switch d := m.(type) {
	case *edpb.ErrorInfo, *edpb.RetryInfo:
		// Shown as reason, domain, metadata and retry above.
	case *edpb.BadRequest:
		for _, v := range d.GetFieldViolations() {
			f.Violations = append(f.Violations, pair{v.GetField(), v.GetDescription()})
		}
	case *edpb.QuotaFailure:
		for _, v := range d.GetViolations() {
			f.Quota = append(f.Quota, pair{v.GetSubject(), v.GetDescription()})
		}
	case *edpb.PreconditionFailure:
		for _, v := range d.GetViolations() {
			f.Preconditions = append(f.Preconditions, triple{v.GetType(), v.GetSubject(), v.GetDescription()})
		}
	case *edpb.ResourceInfo:
		f.Resources = append(f.Resources, triple{d.GetResourceType(), d.GetResourceName(), d.GetDescription()})
	case *edpb.Help:
		for _, l := range d.GetLinks() {
			f.Help = append(f.Help, pair{l.GetDescription(), l.GetUrl()})
		}
	default:
		b, _ := protojson.Marshal(m)
		f.Other = append(f.Other, string(b))
	}
}
