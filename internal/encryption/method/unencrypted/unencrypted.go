package unencrypted

import (
	"context"
	"errors"

	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/encryption/method"
)

// Type is the unencrypted method type.
type Type struct{}

// Name is the type's name.
const Name = "unencrypted"

func (Type) Name() string { return Name }

func (Type) Spec() hcldec.Spec { return hcldec.ObjectSpec{} }

// Build returns the method; data "encrypted" with it is never enveloped, so
// its Encrypt and Decrypt are never called for real.
func (Type) Build(cty.Value) (method.Method, error) { return Method{}, nil }

// Method is the unencrypted method.
type Method struct{}

var errNotCalled = errors.New("the unencrypted method does not transform data; unencrypted data is stored as it is")

func (Method) Encrypt(context.Context, []byte) ([]byte, error) { return nil, errNotCalled }
func (Method) Decrypt(context.Context, []byte) ([]byte, error) { return nil, errNotCalled }
