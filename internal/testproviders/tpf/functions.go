package tpf

import (
	"context"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// reverseFunction is provider::<type>::reverse(string) string.
type reverseFunction struct{}

func (reverseFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "reverse"
}

func (reverseFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary:    "Reverses a string by Unicode code points.",
		Parameters: []function.Parameter{function.StringParameter{Name: "input"}},
		Return:     function.StringReturn{},
	}
}

func (reverseFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var input string
	resp.Error = req.Arguments.Get(ctx, &input)
	if resp.Error != nil {
		return
	}
	runes := []rune(input)
	for i, j := 0, len(runes)-1; i < j; i, j = i+1, j-1 {
		runes[i], runes[j] = runes[j], runes[i]
	}
	resp.Error = resp.Result.Set(ctx, string(runes))
}

// sqrtFunction is provider::<type>::sqrt(number) number; a negative argument
// is an error attributed to argument 0.
type sqrtFunction struct{}

func (sqrtFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "sqrt"
}

func (sqrtFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary:    "Square root; fails on a negative argument.",
		Parameters: []function.Parameter{function.NumberParameter{Name: "n"}},
		Return:     function.NumberReturn{},
	}
}

func (sqrtFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var n *big.Float
	resp.Error = req.Arguments.Get(ctx, &n)
	if resp.Error != nil {
		return
	}
	if n.Sign() < 0 {
		resp.Error = function.NewArgumentFuncError(0, "sqrt needs a number that is not negative, got "+n.Text('g', -1))
		return
	}
	resp.Error = resp.Result.Set(ctx, new(big.Float).SetPrec(n.MinPrec()+64).Sqrt(n))
}

// echoFunction is provider::<type>::echo(dynamic) dynamic: it returns its
// argument unchanged, whatever its type.
type echoFunction struct{}

func (echoFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "echo"
}

func (echoFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary:    "Returns its argument unchanged.",
		Parameters: []function.Parameter{function.DynamicParameter{Name: "value", AllowNullValue: true, AllowUnknownValues: true}},
		Return:     function.DynamicReturn{},
	}
}

func (echoFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var value types.Dynamic
	resp.Error = req.Arguments.Get(ctx, &value)
	if resp.Error != nil {
		return
	}
	resp.Error = resp.Result.Set(ctx, value)
}
