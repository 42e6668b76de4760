package engine

import "context"

// contextT shortens the signatures of provider-call closures.
type contextT = context.Context
