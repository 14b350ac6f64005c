# Adversarial partition inputs (organ pipe, sawtooth, all equal, killer sequences, NaN) large
# enough to spend introselect's depth limit and reach its median-of-medians pivots; printed as
# weighted sums so that every position counts: /usr/bin/python3 tests/gen/partition_adversarial.py
# > tests/scripts/partition/adversarial.tsr, then the .out from the oracle.
pats = {
 'organ': 'concatenate([arange(N - N // 2), arange(N // 2, 0, -1)])',
 'saw': 'arange(N) % 17',
 'equal': 'zeros(N)',
 'twovals': '(arange(N) % 2) * 1.0',
 'rev': 'arange(N, 0, -1)',
 'sorted': 'arange(N) * 1.0',
 'mixed': '(arange(N) * 7919) % 1009',
 'killer': '((arange(N) * 37) % N) * ((arange(N) % 2) * 2 - 1)',
 'nanmix': 'where(arange(N) % 5 == 0, nan, arange(N) * 0.5)',
}
out = []
for N in [100, 1000, 4096, 10007]:
    for name, expr in pats.items():
        out.append('N = %d' % N)
        out.append('a = ' + expr)
        for k in ['0', '3', 'N // 3', 'N // 2', 'N - 1', '[1, N // 4, N // 2, N - 2]']:
            out.append('i = argpartition(a, %s)' % k)
            out.append('print(%r, N, %r, (i * (arange(N) %% 13 + 1)).sum(), (partition(a, %s) * (arange(N) %% 11 + 1)).sum())' % (name, k, k))
print('\n'.join(out))
