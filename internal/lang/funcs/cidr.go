package funcs

import (
	"fmt"
	"math/big"
	"net"
	"strconv"
	"strings"

	"github.com/apparentlymart/go-cidr/cidr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"
)

// parseCIDR accepts IPv4 octets with leading zeros as decimal, as Go did
// before 1.17 and as OpenTofu still does, so existing configurations keep
// their meaning ("010.0.0.0/8" is 10.0.0.0/8, never octal).
func parseCIDR(s string) (*net.IPNet, error) {
	_, network, err := net.ParseCIDR(stripIPv4LeadingZeros(s))
	if err != nil {
		return nil, fmt.Errorf("invalid CIDR expression: %w", err)
	}
	return network, nil
}

func parseIP(s string) net.IP {
	return net.ParseIP(stripIPv4LeadingZeros(s))
}

func stripIPv4LeadingZeros(s string) string {
	addr, suffix, hasSlash := strings.Cut(s, "/")
	parts := strings.Split(addr, ".")
	if len(parts) != 4 {
		return s
	}
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 10, 8)
		if err != nil {
			return s
		}
		parts[i] = strconv.FormatUint(n, 10)
	}
	if hasSlash {
		return strings.Join(parts, ".") + "/" + suffix
	}
	return strings.Join(parts, ".")
}

// CidrHostFunc computes the address of host number hostnum in a prefix;
// negative numbers count back from the end of the range.
var CidrHostFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "hostnum", Type: cty.Number},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		var hostNum *big.Int
		if err := gocty.FromCtyValue(args[1], &hostNum); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		ip, err := cidr.HostBig(network, hostNum)
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(ip.String()), nil
	},
})

// CidrNetmaskFunc gives the dotted-decimal netmask of an IPv4 prefix.
var CidrNetmaskFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "prefix", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		if network.IP.To4() == nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("IPv6 addresses cannot have a netmask: %s", args[0].AsString())
		}
		return cty.StringVal(net.IP(network.Mask).String()), nil
	},
})

// CidrSubnetFunc computes subnet netnum of a prefix extended by newbits.
var CidrSubnetFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "newbits", Type: cty.Number},
		{Name: "netnum", Type: cty.Number},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		var newBits int
		if err := gocty.FromCtyValue(args[1], &newBits); err != nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(1, "%s", err)
		}
		var netNum *big.Int
		if err := gocty.FromCtyValue(args[2], &netNum); err != nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(2, "%s", err)
		}
		network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgError(0, err)
		}
		subnet, err := cidr.SubnetBig(network, newBits, netNum)
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(subnet.String()), nil
	},
})

// CidrSubnetsFunc allocates consecutive subnets of the given sizes from a
// prefix, each aligned after the previous one.
var CidrSubnetsFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "prefix", Type: cty.String}},
	VarParam:     &function.Parameter{Name: "newbits", Type: cty.Number},
	Type:         function.StaticReturnType(cty.List(cty.String)),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(retType), function.NewArgError(0, err)
		}
		startPrefixLen, addrBits := network.Mask.Size()
		if len(args) == 1 {
			return cty.ListValEmpty(cty.String), nil
		}
		var current *net.IPNet
		results := make([]cty.Value, 0, len(args)-1)
		for i, arg := range args[1:] {
			var newBits int
			if err := gocty.FromCtyValue(arg, &newBits); err != nil {
				return cty.UnknownVal(retType), function.NewArgErrorf(i+1, "%s", err)
			}
			if newBits < 1 {
				return cty.UnknownVal(retType), function.NewArgErrorf(i+1, "must extend prefix by at least one bit")
			}
			length := startPrefixLen + newBits
			if length > addrBits {
				return cty.UnknownVal(retType), function.NewArgErrorf(i+1, "would extend prefix to %d bits, which is too long for an IPv%d address", length, map[int]int{32: 4, 128: 6}[addrBits])
			}
			if current == nil {
				current = &net.IPNet{IP: network.IP, Mask: net.CIDRMask(length, addrBits)}
				results = append(results, cty.StringVal(current.String()))
				continue
			}
			next, rollover := cidr.NextSubnet(current, length)
			if rollover || !network.Contains(next.IP) {
				return cty.UnknownVal(retType), function.NewArgErrorf(i+1, "not enough remaining address space for a subnet with a prefix of %d bits after %s", length, current.String())
			}
			current = next
			results = append(results, cty.StringVal(current.String()))
		}
		return cty.ListVal(results), nil
	},
})

// CidrContainsFunc reports whether a prefix contains an address or a
// whole other prefix of the same address family.
var CidrContainsFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "containing_prefix", Type: cty.String},
		{Name: "contained_ip_or_prefix", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		container, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.Bool), function.NewArgError(0, err)
		}
		first, last, err := containedRange(args[1].AsString())
		if err != nil {
			return cty.UnknownVal(cty.Bool), function.NewArgError(1, err)
		}
		if (container.IP.To4() == nil) != (first.To4() == nil) {
			return cty.UnknownVal(cty.Bool), fmt.Errorf("address family mismatch: %s vs. %s", args[0].AsString(), args[1].AsString())
		}
		return cty.BoolVal(container.Contains(first) && container.Contains(last)), nil
	},
})

// containedRange returns the first and last address of an address or prefix.
func containedRange(s string) (net.IP, net.IP, error) {
	if strings.Contains(s, "/") {
		network, err := parseCIDR(s)
		if err != nil {
			return nil, nil, err
		}
		first, last := cidr.AddressRange(network)
		return first, last, nil
	}
	ip := parseIP(s)
	if ip == nil {
		return nil, nil, fmt.Errorf("invalid IP address: %s", s)
	}
	return ip, ip, nil
}
