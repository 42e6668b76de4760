package pulumi

import (
	"context"
	"errors"
	"io"
	"sort"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/grpc"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
)

// StreamInvoke runs a function whose answer is a stream of results. The
// schema does not say which functions stream, so every function F (data
// source NAME) is also offered as the data source NAME_stream: its
// arguments are F's inputs and its one computed attribute, results, is
// the list of every answer the stream carried, in order, until it ended.
// A read is complete or fails; a provider that cannot stream F answers
// Unimplemented, which names the data source.

// streamSuffix ends the name of a function's streaming data source.
const streamSuffix = "_stream"

// streamResultsAttr is the streaming data source's list of answers.
const streamResultsAttr = "results"

// streamInvokeMethod is the protocol's StreamInvoke, absent from the
// SDK's generated client; the messages are Invoke's.
const streamInvokeMethod = "/pulumirpc.ResourceProvider/StreamInvoke"

// addStreamingDataSources adds NAME_stream for every function, unless a
// data source already has that name. It returns the names added.
func (p *Package) addStreamingDataSources() map[string]*Function {
	names := make([]string, 0, len(p.DataSources))
	for name := range p.DataSources {
		names = append(names, name)
	}
	sort.Strings(names)
	streams := map[string]*Function{}
	for _, name := range names {
		fn := p.DataSources[name]
		streamName := name + streamSuffix
		if _, taken := p.DataSources[streamName]; taken {
			continue
		}
		streams[streamName] = &Function{Token: fn.Token, Schema: schema.Schema{Block: streamBlock(fn.Schema.Block)}}
	}
	for name, fn := range streams {
		p.DataSources[name] = fn
	}
	return streams
}

// streamBlock is a function's arguments plus results, a list of objects
// holding its outputs.
func streamBlock(fnBlock *schema.Block) *schema.Block {
	ty := fnBlock.ImpliedType()
	block := &schema.Block{Attributes: map[string]*schema.Attribute{}, Description: fnBlock.Description}
	outputs := map[string]cty.Type{}
	sensitive := false
	for name, attr := range fnBlock.Attributes {
		if attr.Required || attr.Optional {
			block.Attributes[name] = attr
		}
		if attr.Computed {
			outputs[name] = ty.AttributeType(name)
			sensitive = sensitive || attr.Sensitive
		}
	}
	block.Attributes[streamResultsAttr] = &schema.Attribute{Type: cty.List(cty.Object(outputs)), Computed: true, Sensitive: sensitive,
		Description: "Every answer the function streamed, in order."}
	return block
}

// readStream calls StreamInvoke and collects the answers into results.
func (p *Provider) readStream(ctx context.Context, pkg *Package, fn *Function, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	ty := fn.Schema.Block.ImpliedType()
	if !req.Config.IsWhollyKnown() {
		return providers.ReadDataSourceResponse{State: cty.UnknownVal(ty)}
	}
	args, err := pkg.argsToWire(req.Config, req.ConfigSensitivePaths, p.wireOptions())
	if err != nil {
		return providers.ReadDataSourceResponse{Diagnostics: p.valueProblem("StreamInvoke", req.TypeName, err)}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := p.conn.NewStream(ctx, &grpc.StreamDesc{StreamName: "StreamInvoke", ServerStreams: true}, streamInvokeMethod)
	if err == nil {
		err = stream.SendMsg(&pulumirpc.InvokeRequest{Tok: fn.Token, Args: args})
	}
	if err == nil {
		err = stream.CloseSend()
	}
	if err != nil {
		return providers.ReadDataSourceResponse{Diagnostics: diags.Diagnostics{p.callFailure(ctx, "StreamInvoke", req.TypeName, err)}}
	}
	elemType := ty.AttributeType(streamResultsAttr).ElementType()
	var results []cty.Value
	var secrets []cty.Path
	for {
		var answer pulumirpc.InvokeResponse
		err := stream.RecvMsg(&answer)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return providers.ReadDataSourceResponse{Diagnostics: diags.Diagnostics{p.callFailure(ctx, "StreamInvoke", req.TypeName, err)}}
		}
		if problems := p.checkFailures(answer.GetFailures(), "data source "+req.TypeName); problems.HasErrors() {
			return providers.ReadDataSourceResponse{Diagnostics: problems}
		}
		result, resultSecrets, err := pkg.fromWire(answer.GetReturn(), elemType)
		if err != nil {
			return providers.ReadDataSourceResponse{Diagnostics: p.answerProblem(req.TypeName, err)}
		}
		prefix := cty.GetAttrPath(streamResultsAttr).IndexInt(len(results))
		for _, path := range resultSecrets {
			secrets = append(secrets, append(prefix.Copy(), path...))
		}
		results = append(results, result)
	}
	attrs := req.Config.AsValueMap()
	attrs[streamResultsAttr] = cty.ListValEmpty(elemType)
	if len(results) > 0 {
		attrs[streamResultsAttr] = cty.ListVal(results)
	}
	return providers.ReadDataSourceResponse{State: cty.ObjectVal(attrs), SensitivePaths: secrets}
}
