locals {
  a = 1   
  b = "trailing spaces"    
}   
