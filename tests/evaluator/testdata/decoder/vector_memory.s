# Every RVV 1.0 vector load/store addressing mode with each element width, masked and unmasked.
.option norvc
.text
vector_memory:
# unit-stride, fault-only-first, strided
vle8.v v8, (a0)
vle8.v v8, (a0), v0.t
vse8.v v8, (a0)
vse8.v v8, (a0), v0.t
vle8ff.v v8, (a0)
vle8ff.v v8, (a0), v0.t
vlse8.v v8, (a0), a1
vlse8.v v8, (a0), a1, v0.t
vsse8.v v8, (a0), a1
vsse8.v v8, (a0), a1, v0.t
vle16.v v8, (a0)
vle16.v v8, (a0), v0.t
vse16.v v8, (a0)
vse16.v v8, (a0), v0.t
vle16ff.v v8, (a0)
vle16ff.v v8, (a0), v0.t
vlse16.v v8, (a0), a1
vlse16.v v8, (a0), a1, v0.t
vsse16.v v8, (a0), a1
vsse16.v v8, (a0), a1, v0.t
vle32.v v8, (a0)
vle32.v v8, (a0), v0.t
vse32.v v8, (a0)
vse32.v v8, (a0), v0.t
vle32ff.v v8, (a0)
vle32ff.v v8, (a0), v0.t
vlse32.v v8, (a0), a1
vlse32.v v8, (a0), a1, v0.t
vsse32.v v8, (a0), a1
vsse32.v v8, (a0), a1, v0.t
vle64.v v8, (a0)
vle64.v v8, (a0), v0.t
vse64.v v8, (a0)
vse64.v v8, (a0), v0.t
vle64ff.v v8, (a0)
vle64ff.v v8, (a0), v0.t
vlse64.v v8, (a0), a1
vlse64.v v8, (a0), a1, v0.t
vsse64.v v8, (a0), a1
vsse64.v v8, (a0), a1, v0.t

# indexed, unordered and ordered (the width names the index EEW)
vluxei8.v v8, (a0), v16
vluxei8.v v8, (a0), v16, v0.t
vloxei8.v v8, (a0), v16
vloxei8.v v8, (a0), v16, v0.t
vsuxei8.v v8, (a0), v16
vsuxei8.v v8, (a0), v16, v0.t
vsoxei8.v v8, (a0), v16
vsoxei8.v v8, (a0), v16, v0.t
vluxei16.v v8, (a0), v16
vluxei16.v v8, (a0), v16, v0.t
vloxei16.v v8, (a0), v16
vloxei16.v v8, (a0), v16, v0.t
vsuxei16.v v8, (a0), v16
vsuxei16.v v8, (a0), v16, v0.t
vsoxei16.v v8, (a0), v16
vsoxei16.v v8, (a0), v16, v0.t
vluxei32.v v8, (a0), v16
vluxei32.v v8, (a0), v16, v0.t
vloxei32.v v8, (a0), v16
vloxei32.v v8, (a0), v16, v0.t
vsuxei32.v v8, (a0), v16
vsuxei32.v v8, (a0), v16, v0.t
vsoxei32.v v8, (a0), v16
vsoxei32.v v8, (a0), v16, v0.t
vluxei64.v v8, (a0), v16
vluxei64.v v8, (a0), v16, v0.t
vloxei64.v v8, (a0), v16
vloxei64.v v8, (a0), v16, v0.t
vsuxei64.v v8, (a0), v16
vsuxei64.v v8, (a0), v16, v0.t
vsoxei64.v v8, (a0), v16
vsoxei64.v v8, (a0), v16, v0.t

# segments: nf 2..8
vlseg2e32.v v8, (a0)
vlseg2e32.v v8, (a0), v0.t
vsseg2e32.v v8, (a0)
vsseg2e32.v v8, (a0), v0.t
vlseg2e32ff.v v8, (a0)
vlseg2e32ff.v v8, (a0), v0.t
vlsseg2e32.v v8, (a0), a1
vlsseg2e32.v v8, (a0), a1, v0.t
vssseg2e32.v v8, (a0), a1
vssseg2e32.v v8, (a0), a1, v0.t
vluxseg2ei32.v v8, (a0), v20
vluxseg2ei32.v v8, (a0), v20, v0.t
vloxseg2ei32.v v8, (a0), v20
vloxseg2ei32.v v8, (a0), v20, v0.t
vsuxseg2ei32.v v8, (a0), v20
vsuxseg2ei32.v v8, (a0), v20, v0.t
vsoxseg2ei32.v v8, (a0), v20
vsoxseg2ei32.v v8, (a0), v20, v0.t
vlseg3e64.v v8, (a0)
vlseg3e64.v v8, (a0), v0.t
vsseg3e64.v v8, (a0)
vsseg3e64.v v8, (a0), v0.t
vlseg3e64ff.v v8, (a0)
vlseg3e64ff.v v8, (a0), v0.t
vlsseg3e64.v v8, (a0), a1
vlsseg3e64.v v8, (a0), a1, v0.t
vssseg3e64.v v8, (a0), a1
vssseg3e64.v v8, (a0), a1, v0.t
vluxseg3ei64.v v8, (a0), v20
vluxseg3ei64.v v8, (a0), v20, v0.t
vloxseg3ei64.v v8, (a0), v20
vloxseg3ei64.v v8, (a0), v20, v0.t
vsuxseg3ei64.v v8, (a0), v20
vsuxseg3ei64.v v8, (a0), v20, v0.t
vsoxseg3ei64.v v8, (a0), v20
vsoxseg3ei64.v v8, (a0), v20, v0.t
vlseg4e8.v v8, (a0)
vlseg4e8.v v8, (a0), v0.t
vsseg4e8.v v8, (a0)
vsseg4e8.v v8, (a0), v0.t
vlseg4e8ff.v v8, (a0)
vlseg4e8ff.v v8, (a0), v0.t
vlsseg4e8.v v8, (a0), a1
vlsseg4e8.v v8, (a0), a1, v0.t
vssseg4e8.v v8, (a0), a1
vssseg4e8.v v8, (a0), a1, v0.t
vluxseg4ei8.v v8, (a0), v20
vluxseg4ei8.v v8, (a0), v20, v0.t
vloxseg4ei8.v v8, (a0), v20
vloxseg4ei8.v v8, (a0), v20, v0.t
vsuxseg4ei8.v v8, (a0), v20
vsuxseg4ei8.v v8, (a0), v20, v0.t
vsoxseg4ei8.v v8, (a0), v20
vsoxseg4ei8.v v8, (a0), v20, v0.t
vlseg5e16.v v8, (a0)
vlseg5e16.v v8, (a0), v0.t
vsseg5e16.v v8, (a0)
vsseg5e16.v v8, (a0), v0.t
vlseg5e16ff.v v8, (a0)
vlseg5e16ff.v v8, (a0), v0.t
vlsseg5e16.v v8, (a0), a1
vlsseg5e16.v v8, (a0), a1, v0.t
vssseg5e16.v v8, (a0), a1
vssseg5e16.v v8, (a0), a1, v0.t
vluxseg5ei16.v v8, (a0), v20
vluxseg5ei16.v v8, (a0), v20, v0.t
vloxseg5ei16.v v8, (a0), v20
vloxseg5ei16.v v8, (a0), v20, v0.t
vsuxseg5ei16.v v8, (a0), v20
vsuxseg5ei16.v v8, (a0), v20, v0.t
vsoxseg5ei16.v v8, (a0), v20
vsoxseg5ei16.v v8, (a0), v20, v0.t
vlseg6e32.v v8, (a0)
vlseg6e32.v v8, (a0), v0.t
vsseg6e32.v v8, (a0)
vsseg6e32.v v8, (a0), v0.t
vlseg6e32ff.v v8, (a0)
vlseg6e32ff.v v8, (a0), v0.t
vlsseg6e32.v v8, (a0), a1
vlsseg6e32.v v8, (a0), a1, v0.t
vssseg6e32.v v8, (a0), a1
vssseg6e32.v v8, (a0), a1, v0.t
vluxseg6ei32.v v8, (a0), v20
vluxseg6ei32.v v8, (a0), v20, v0.t
vloxseg6ei32.v v8, (a0), v20
vloxseg6ei32.v v8, (a0), v20, v0.t
vsuxseg6ei32.v v8, (a0), v20
vsuxseg6ei32.v v8, (a0), v20, v0.t
vsoxseg6ei32.v v8, (a0), v20
vsoxseg6ei32.v v8, (a0), v20, v0.t
vlseg7e64.v v8, (a0)
vlseg7e64.v v8, (a0), v0.t
vsseg7e64.v v8, (a0)
vsseg7e64.v v8, (a0), v0.t
vlseg7e64ff.v v8, (a0)
vlseg7e64ff.v v8, (a0), v0.t
vlsseg7e64.v v8, (a0), a1
vlsseg7e64.v v8, (a0), a1, v0.t
vssseg7e64.v v8, (a0), a1
vssseg7e64.v v8, (a0), a1, v0.t
vluxseg7ei64.v v8, (a0), v20
vluxseg7ei64.v v8, (a0), v20, v0.t
vloxseg7ei64.v v8, (a0), v20
vloxseg7ei64.v v8, (a0), v20, v0.t
vsuxseg7ei64.v v8, (a0), v20
vsuxseg7ei64.v v8, (a0), v20, v0.t
vsoxseg7ei64.v v8, (a0), v20
vsoxseg7ei64.v v8, (a0), v20, v0.t
vlseg8e8.v v8, (a0)
vlseg8e8.v v8, (a0), v0.t
vsseg8e8.v v8, (a0)
vsseg8e8.v v8, (a0), v0.t
vlseg8e8ff.v v8, (a0)
vlseg8e8ff.v v8, (a0), v0.t
vlsseg8e8.v v8, (a0), a1
vlsseg8e8.v v8, (a0), a1, v0.t
vssseg8e8.v v8, (a0), a1
vssseg8e8.v v8, (a0), a1, v0.t
vluxseg8ei8.v v8, (a0), v20
vluxseg8ei8.v v8, (a0), v20, v0.t
vloxseg8ei8.v v8, (a0), v20
vloxseg8ei8.v v8, (a0), v20, v0.t
vsuxseg8ei8.v v8, (a0), v20
vsuxseg8ei8.v v8, (a0), v20, v0.t
vsoxseg8ei8.v v8, (a0), v20
vsoxseg8ei8.v v8, (a0), v20, v0.t

# whole registers
vl1re8.v v8, (a0)
vl1re16.v v8, (a0)
vl1re32.v v8, (a0)
vl1re64.v v8, (a0)
vs1r.v v8, (a0)
vl2re8.v v8, (a0)
vl2re16.v v8, (a0)
vl2re32.v v8, (a0)
vl2re64.v v8, (a0)
vs2r.v v8, (a0)
vl4re8.v v8, (a0)
vl4re16.v v8, (a0)
vl4re32.v v8, (a0)
vl4re64.v v8, (a0)
vs4r.v v8, (a0)
vl8re8.v v8, (a0)
vl8re16.v v8, (a0)
vl8re32.v v8, (a0)
vl8re64.v v8, (a0)
vs8r.v v8, (a0)

# mask registers
vlm.v v0, (a0)
vsm.v v0, (a0)
vlm.v v8, (sp)
vsm.v v9, (t0)
