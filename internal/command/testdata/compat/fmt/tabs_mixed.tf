locals {
	a = 1
		bb = 2
  	ccc = "	x"
}

	# tab comment
