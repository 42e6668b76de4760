package pulumi

import (
	"context"
	"fmt"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
)

// selfArg is the argument of a method call that names the component.
const selfArg = "__self__"

// Method is a component's method, offered as a provider function: its
// first parameter is the component, the others are the method's
// arguments in name order, and it returns an object of the method's
// outputs.
type Method struct {
	// Name is the provider function's name: the component's type name
	// without the package prefix, then the method in snake case
	// (tpulumi:index:Pair's describe → pair_describe).
	Name        string
	Token       string // the method's function token
	Component   string // the component's token
	Params      []MethodParam
	Result      cty.Type
	Description string
}

// MethodParam is one argument of a method.
type MethodParam struct {
	Name   string // snake case
	Pulumi string // the Pulumi argument name
	Type   cty.Type
}

// MethodFunctionName names a component method's provider function.
func MethodFunctionName(componentToken, method string) string {
	typeName := strings.TrimPrefix(TypeName(componentToken), SnakeCase(packageOf(componentToken))+"_")
	return typeName + "_" + SnakeCase(method)
}

// componentMethods collects every component's methods, by function token.
func (c *converter) componentMethods() map[string]*Method {
	methods := map[string]*Method{}
	for _, token := range sortedKeys(c.spec.Resources) {
		res := c.spec.Resources[token]
		if !res.IsComponent {
			continue
		}
		for _, method := range sortedKeys(res.Methods) {
			fnToken := res.Methods[method]
			fn, ok := c.spec.Functions[fnToken]
			if !ok {
				c.problems = append(c.problems, diags.Warnf("Method without a function",
					"The Pulumi package %s's component %s lists the method %s as %s, which is not among its functions; the method is not offered.", c.spec.Name, token, method, fnToken))
				continue
			}
			methods[fnToken] = c.method(token, method, fnToken, fn)
		}
	}
	return methods
}

func (c *converter) method(component, method, token string, fn functionSpec) *Method {
	m := &Method{Name: MethodFunctionName(component, method), Token: token, Component: component, Description: fn.Description}
	if fn.Inputs != nil {
		for _, name := range sortedKeys(fn.Inputs.Properties) {
			if name == selfArg {
				continue
			}
			m.Params = append(m.Params, MethodParam{Name: c.attrName(name), Pulumi: name, Type: c.ctyType(fn.Inputs.Properties[name].typeRef, 0)})
		}
	}
	results := map[string]cty.Type{}
	if fn.Outputs != nil {
		for _, name := range sortedKeys(fn.Outputs.Properties) {
			results[c.attrName(name)] = c.ctyType(fn.Outputs.Properties[name].typeRef, 0)
		}
	}
	m.Result = cty.Object(results)
	return m
}

// isMethod reports whether a function token is a component's method,
// which becomes a provider function rather than a data source.
func (p *Package) isMethod(token string) bool {
	_, ok := p.methods[token]
	return ok
}

// methodByName finds a method by its provider function name.
func (p *Package) methodByName(name string) *Method {
	for _, m := range p.methods {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// functionDecls declares every method as a provider function.
func (p *Package) functionDecls() map[string]providers.FunctionDecl {
	decls := make(map[string]providers.FunctionDecl, len(p.methods))
	for _, m := range p.methods {
		params := []providers.FunctionParam{{Name: "self", Type: cty.DynamicPseudoType, AllowUnknownValues: true,
			Description: fmt.Sprintf("The %s component whose method is called.", TypeName(m.Component))}}
		for _, param := range m.Params {
			params = append(params, providers.FunctionParam{Name: param.Name, Type: param.Type, AllowNullValue: true, AllowUnknownValues: true})
		}
		decls[m.Name] = providers.FunctionDecl{Parameters: params, ReturnType: m.Result, Summary: m.Description,
			Description: fmt.Sprintf("Calls the method %s of the component %s.", m.Token, m.Component)}
	}
	return decls
}

// callOptions marshal a call's arguments: __self__ must stay a resource
// reference.
var callOptions = plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true, KeepResources: true, SkipNulls: true}

// callMethod runs a method with Call. The component is referenced by its
// URN (its id attribute); while that or any argument is unknown (a plan
// before the component exists), the result is unknown.
func (p *Provider) callMethod(ctx context.Context, m *Method, args []cty.Value) providers.CallFunctionResponse {
	unknown := providers.CallFunctionResponse{Result: cty.UnknownVal(m.Result)}
	if len(args) != len(m.Params)+1 {
		return callError(fmt.Sprintf("%s takes %d arguments, the component and %d more", m.Name, len(m.Params)+1, len(m.Params)), nil)
	}
	self, _ := args[0].UnmarkDeep()
	switch {
	case !self.IsWhollyKnown():
		// A component not created yet (its outputs unknown) has no
		// methods to call.
		return unknown
	case self.IsNull() || !self.Type().IsObjectType() || !self.Type().HasAttribute("id"):
		return callError(fmt.Sprintf("the first argument of %s must be a %s component", m.Name, TypeName(m.Component)), new(int64))
	case !self.GetAttr("id").IsKnown():
		return unknown
	}
	props := resource.PropertyMap{selfArg: resource.MakeComponentResourceReference(resource.URN(self.GetAttr("id").AsString()), "")}
	for i, param := range m.Params {
		v, _ := args[i+1].UnmarkDeep()
		if !v.IsWhollyKnown() {
			return unknown
		}
		pv, err := p.pkg.toProperty(v, param.Type)
		if err != nil {
			index := int64(i + 1)
			return callError(fmt.Sprintf("argument %s: %s", param.Name, err), &index)
		}
		if !pv.IsNull() {
			props[resource.PropertyKey(param.Pulumi)] = pv
		}
	}
	wire, err := plugin.MarshalProperties(props, callOptions)
	if err != nil {
		return callError(err.Error(), nil)
	}
	resp, err := p.client.Call(ctx, &pulumirpc.CallRequest{Tok: m.Token, Args: wire, Project: urnProject, Stack: urnStack})
	if err != nil {
		return callError(p.callFailure(ctx, "Call", m.Name, err).Detail, nil)
	}
	if len(resp.GetFailures()) > 0 {
		failure := resp.GetFailures()[0]
		return callError(fmt.Sprintf("the provider %s rejected the argument %q: %s", p.name, SnakeCase(failure.GetProperty()), failure.GetReason()), nil)
	}
	result, err := p.pkg.wireValue(wireJSON(resp.GetReturn()), m.Result)
	if err != nil {
		return callError(fmt.Sprintf("the provider %s returned a result that does not match the method's schema: %s", p.name, err), nil)
	}
	return providers.CallFunctionResponse{Result: result}
}

func callError(text string, argument *int64) providers.CallFunctionResponse {
	return providers.CallFunctionResponse{Result: cty.NilVal, Err: &providers.FunctionError{Text: text, Argument: argument}}
}
