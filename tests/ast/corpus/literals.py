# Literals: numbers of every base and size, complex, strings of every prefix, bytes.
0, 1, 00, 0_0, 1_000_000, 0x1F, 0XdeadBEEF, 0o17, 0O7_7, 0b1010, 0B1_0
9223372036854775807
9223372036854775808
123456789012345678901234567890123456789012345678901234567890
0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF
0o7777777777777777777777777777777
0b11111111111111111111111111111111111111111111111111111111111111111111
1., .5, 1e10, 1E-10, 1.5e+3, 1_0.2_5, 0.0, 1e400, 1.7976931348623157e308, 5e-324
1j, 2.5e3J, 0j, 1_0j, .5j, 1e-3j
1 + 2j
1if x else 2
'a', "b", '''c''', """d""", 'a' "b" '''c'''
'\n\t\\\'\"\x41\u00e9\0\101\a\b\f\v\r'
'\U0001F600', '\u20ac', 'é', '日本'
'a\
b'
r'a\nb', R'\d+', r"\"", r'\''
u'x', U'y', u'a' 'b', 'a' u'b'
b'bytes', B"x", b'\x00\xff\n', rb'\d', Rb'x', bR'y', BR"z", br'\xff'
b'a' b'c'
b''
''
'' ''
'\d', '\{', '\q'
"""multi
line
string"""
'''it's'''
"it's"
'say "hi"'
