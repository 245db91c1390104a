package errs

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Metadata returns the `meta`-tagged fields of a typed error as strings:
// the same keys for every error of a kind. Slices of names are joined with
// ", "; slices of violations give their count; durations are in seconds;
// times are RFC 3339.
func Metadata(err error) map[string]string {
	v, ok := structOf(err)
	if !ok {
		return map[string]string{}
	}
	fields := metaFields(v.Type())
	out := make(map[string]string, len(fields))
	for _, f := range fields {
		out[f.key] = formatField(v.Field(f.index))
	}
	return out
}

// structOf returns the struct a typed error points to, or false for an
// error that is not a pointer to a struct.
func structOf(err error) (reflect.Value, bool) {
	v := reflect.ValueOf(err)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return reflect.Value{}, false
	}
	return v.Elem(), true
}

// metaField is a `meta`-tagged field of a typed error.
type metaField struct {
	index int
	key   string
}

var metaPlans sync.Map // reflect.Type -> []metaField

// metaFields returns the tagged fields of a struct type, worked out once.
func metaFields(t reflect.Type) []metaField {
	if plan, ok := metaPlans.Load(t); ok {
		return plan.([]metaField)
	}
	var fields []metaField
	for i := 0; i < t.NumField(); i++ {
		if key, ok := t.Field(i).Tag.Lookup("meta"); ok {
			fields = append(fields, metaField{index: i, key: key})
		}
	}
	metaPlans.Store(t, fields)
	return fields
}

// FromMetadata builds a typed error of a kind from its metadata, the
// reverse of Metadata. Violation lists are left empty for the caller to fill
// from the status details.
func FromMetadata(kind string, meta map[string]string) (error, error) {
	e := New(kind)
	if e == nil {
		return nil, fmt.Errorf("unknown error kind %q", kind)
	}
	v := reflect.ValueOf(e).Elem()
	for _, f := range metaFields(v.Type()) {
		s, present := meta[f.key]
		if !present {
			continue
		}
		if err := parseField(v.Field(f.index), s); err != nil {
			return nil, fmt.Errorf("metadata %s=%q: %w", f.key, s, err)
		}
	}
	return e, nil
}

var (
	durationType = reflect.TypeOf(time.Duration(0))
	timeType     = reflect.TypeOf(time.Time{})
)

func formatField(f reflect.Value) string {
	switch {
	case f.Type() == durationType:
		return formatSeconds(time.Duration(f.Int()))
	case f.Type() == timeType:
		t := f.Interface().(time.Time)
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format(time.RFC3339Nano)
	}
	switch f.Kind() {
	case reflect.String:
		return f.String()
	case reflect.Int, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(f.Int(), 10)
	case reflect.Float64:
		return formatAmount(f.Float())
	case reflect.Bool:
		return strconv.FormatBool(f.Bool())
	case reflect.Slice:
		if f.Type().Elem().Kind() == reflect.String {
			return joinNames(f.Interface().([]string))
		}
		return strconv.Itoa(f.Len())
	}
	return fmt.Sprint(f.Interface())
}

func parseField(f reflect.Value, s string) error {
	switch {
	case f.Type() == durationType:
		secs, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return err
		}
		f.SetInt(int64(secs * float64(time.Second)))
		return nil
	case f.Type() == timeType:
		if s == "" {
			return nil
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return err
		}
		f.Set(reflect.ValueOf(t))
		return nil
	}
	switch f.Kind() {
	case reflect.String:
		f.SetString(s)
	case reflect.Int, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return err
		}
		f.SetInt(n)
	case reflect.Float64:
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return err
		}
		f.SetFloat(x)
	case reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return err
		}
		f.SetBool(b)
	case reflect.Slice:
		if f.Type().Elem().Kind() == reflect.String {
			if s == "" {
				f.Set(reflect.Zero(f.Type()))
				return nil
			}
			f.Set(reflect.ValueOf(strings.Split(s, ", ")))
		}
	}
	return nil
}

// AppendMetadataValues appends the error's metadata values, in field
// order and separated by NUL bytes, to b: a cheap key for "same metadata".
func AppendMetadataValues(b []byte, err error) []byte {
	v, ok := structOf(err)
	if !ok {
		return b
	}
	for _, f := range metaFields(v.Type()) {
		b = append(b, formatField(v.Field(f.index))...)
		b = append(b, 0)
	}
	return b
}
