resource "x" "y" {
z=1
}
