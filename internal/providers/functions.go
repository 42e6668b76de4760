package providers

import (
	"context"
	"errors"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// CallableFunction makes a provider-defined function callable from
// expressions: arguments are checked against the declared parameters as
// OpenTofu checks them (an unknown argument the function does not accept,
// or one whose type is not known yet, makes the result unknown without
// calling the provider; marks are taken off and put back on the result),
// and p's CallFunction answers the call. A failure naming an argument
// blames that argument.
func CallableFunction(ctx context.Context, p Interface, name string, decl FunctionDecl) function.Function {
	spec := &function.Spec{Type: function.StaticReturnType(decl.ReturnType)}
	for _, param := range decl.Parameters {
		spec.Params = append(spec.Params, callableParam(param))
	}
	if decl.VariadicParameter != nil {
		variadic := callableParam(*decl.VariadicParameter)
		spec.VarParam = &variadic
	}
	spec.Impl = func(args []cty.Value, ret cty.Type) (cty.Value, error) {
		resp := p.CallFunction(ctx, CallFunctionRequest{FunctionName: name, Arguments: args})
		if resp.Err != nil {
			var fe *FunctionError
			if errors.As(resp.Err, &fe) && fe.Argument != nil {
				return cty.UnknownVal(ret), function.NewArgErrorf(int(*fe.Argument), "%s", fe.Text)
			}
			return cty.UnknownVal(ret), resp.Err
		}
		return resp.Result, nil
	}
	return function.New(spec)
}

func callableParam(p FunctionParam) function.Parameter {
	return function.Parameter{Name: p.Name, Type: p.Type, AllowNull: p.AllowNullValue, AllowUnknown: p.AllowUnknownValues}
}
