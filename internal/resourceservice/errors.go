package resourceservice

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/terrane/terrane/internal/store"
)

// Error is a failure with the gRPC code ResourceService gives it. It wraps the
// underlying store error, if any, so errors.Is(err, store.ErrCASFailure) and
// errors.As(err, **store.BatchError) work for in-process callers.
type Error struct {
	Code    codes.Code
	Message string
	Err     error
}

func (e *Error) Error() string { return e.Message }

func (e *Error) Unwrap() error { return e.Err }

// GRPCStatus lets status.Code and the gRPC server see the code.
func (e *Error) GRPCStatus() *status.Status { return status.New(e.Code, e.Message) }

func errorf(code codes.Code, format string, args ...any) error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// fromStore turns a backend error into an Error with the code seed 001 names
// for it, keeping the original for errors.Is.
func fromStore(err error, what string) error {
	if err == nil {
		return nil
	}
	var already *Error
	if errors.As(err, &already) {
		return err
	}
	code := codes.Internal
	hint := ""
	switch {
	case errors.Is(err, store.ErrNotFound):
		code = codes.NotFound
	case errors.Is(err, store.ErrCASFailure):
		code, hint = codes.Aborted, "; read the resource again and retry with its current version"
	case errors.Is(err, store.ErrWrongUid):
		code, hint = codes.FailedPrecondition, "; it was deleted and re-created since it was read"
	case errors.Is(err, store.ErrInconsistent), errors.Is(err, store.ErrClosed), errors.Is(err, store.ErrUnavailable):
		code = codes.Unavailable
	case errors.As(err, new(store.GroupVersionMismatchError)):
		code = codes.InvalidArgument
	case errors.Is(err, context.Canceled):
		code = codes.Canceled
	case errors.Is(err, context.DeadlineExceeded):
		code = codes.DeadlineExceeded
	}
	return &Error{Code: code, Message: fmt.Sprintf("%s: %v%s", what, err, hint), Err: err}
}
