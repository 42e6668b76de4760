resource "a" "b" {
	x = 1
	longer_name = 2
	nested {
		z = "	in string"
	}
}
