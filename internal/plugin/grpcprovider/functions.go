package grpcprovider

import (
	"context"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/proto/tfplugin6"
)

// GetFunctions returns the provider's functions. The schema already lists
// them for most providers; GetFunctions is asked only when it does not.
func (p *Provider) GetFunctions(ctx context.Context) (resp providers.GetFunctionsResponse) {
	if s := p.loadSchema(ctx); len(s.Functions) > 0 || s.Diagnostics.HasErrors() {
		return providers.GetFunctionsResponse{Functions: s.Functions, Diagnostics: s.Diagnostics}
	}
	out, err := p.cfg.Client.GetFunctions(ctx, &tfplugin6.GetFunctions_Request{})
	if status.Code(err) == codes.Unimplemented {
		return resp // a provider older than functions has none
	}
	if err != nil {
		resp.Diagnostics = p.failure(ctx, "GetFunctions", "", err)
		return resp
	}
	var d schemaDecoder
	resp.Functions = make(map[string]providers.FunctionDecl, len(out.GetFunctions()))
	for name, fn := range out.GetFunctions() {
		resp.Functions[name] = d.function(name, fn)
	}
	resp.Diagnostics = diagnostics(out.GetDiagnostics()).Append(d.problems)
	return resp
}

// CallFunction calls a provider-defined function. Arguments are encoded with
// their parameters' types (the variadic parameter's for the rest) and the
// result decoded with the return type. A failure is a *providers.FunctionError
// when the provider reported one (with the index of the argument at fault),
// otherwise an error carrying diagnostics.
func (p *Provider) CallFunction(ctx context.Context, req providers.CallFunctionRequest) (resp providers.CallFunctionResponse) {
	const rpc = "CallFunction"
	decl, ok := p.functionDecl(ctx, req.FunctionName)
	if !ok {
		resp.Err = fmt.Errorf("the provider %s has no function named %q", p.cfg.Name, req.FunctionName)
		return resp
	}
	c := p.codec(rpc, "function "+req.FunctionName)
	in := &tfplugin6.CallFunction_Request{Name: req.FunctionName}
	for i, arg := range req.Arguments {
		param, err := parameterAt(decl, i)
		if err != nil {
			resp.Err = fmt.Errorf("calling %s of provider %s: %w", req.FunctionName, p.cfg.Name, err)
			return resp
		}
		in.Arguments = append(in.Arguments, c.encode(fmt.Sprintf("argument %d", i+1), arg, param.Type))
	}
	if c.problems.HasErrors() {
		resp.Err = c.problems.Err()
		return resp
	}
	out, err := p.cfg.Client.CallFunction(ctx, in)
	if err != nil {
		resp.Err = p.failure(ctx, rpc, "function "+req.FunctionName, err).Err()
		return resp
	}
	if fnErr := out.GetError(); fnErr != nil {
		resp.Err = &providers.FunctionError{Text: fnErr.GetText(), Argument: fnErr.FunctionArgument}
		return resp
	}
	resp.Result = c.decode("result", out.GetResult(), decl.ReturnType)
	resp.Err = c.problems.Err()
	return resp
}

func (p *Provider) functionDecl(ctx context.Context, name string) (providers.FunctionDecl, bool) {
	if decl, ok := p.loadSchema(ctx).Functions[name]; ok {
		return decl, true
	}
	p.functionsOnce.Do(func() { p.functions = p.GetFunctions(ctx).Functions })
	decl, ok := p.functions[name]
	return decl, ok
}

func parameterAt(decl providers.FunctionDecl, i int) (providers.FunctionParam, error) {
	if i < len(decl.Parameters) {
		return decl.Parameters[i], nil
	}
	if decl.VariadicParameter != nil {
		return *decl.VariadicParameter, nil
	}
	return providers.FunctionParam{}, fmt.Errorf("too many arguments: the function takes %d", len(decl.Parameters))
}
