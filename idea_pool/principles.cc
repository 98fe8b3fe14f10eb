#include "idea_pool/principles.h"

namespace eok::idea_pool {

// Our own wording. Each sentence names the technique with the words kernel commits use for it (unroll,
// prefetch, LMUL, vfmacc ...), so that the embedder can match commits to it.
const std::vector<Principle>& initial_principles() {
  static const std::vector<Principle> principles = {
      // Memory.
      {"contiguous-access", "memory",
       "Access memory contiguously: use unit-stride vector loads and stores instead of strided or indexed "
       "(gather/scatter) accesses wherever the data layout allows."},
      {"cache-blocking", "memory",
       "Block (tile) the loops so that the working set of the inner loops stays in the L1 or L2 cache and every loaded "
       "value is reused many times."},
      {"prefetch", "memory",
       "Prefetch data a few iterations ahead of its use so that memory latency overlaps with computation."},
      {"fewer-loads-stores", "memory",
       "Reduce loads and stores: keep values and partial results in vector registers across iterations instead of "
       "re-reading or re-writing memory."},
      {"alignment", "memory",
       "Align buffers and loop starts to cache-line or vector boundaries, and handle the unaligned head and tail "
       "separately."},
      // Parallelism and latency hiding.
      {"unroll-ilp", "parallelism",
       "Unroll the inner loop so that several independent vector instructions are in flight and their latencies "
       "overlap (instruction-level parallelism)."},
      {"independent-accumulators", "parallelism",
       "Use several independent accumulators in reductions and dot products, combined once at the end, to break the "
       "dependency chain."},
      {"wider-vectors-lmul", "parallelism",
       "Process more elements per instruction: use a larger LMUL (register grouping) or wider vectors when enough "
       "vector registers remain."},
      {"software-pipelining", "parallelism",
       "Software-pipeline the loop: issue the loads of the next iteration before the arithmetic of the current one."},
      // Instruction selection.
      {"fused-multiply-add", "instructions",
       "Use fused multiply-add instructions (vfmacc, vfmadd) instead of a separate multiply and add."},
      {"cheaper-instructions", "instructions",
       "Replace expensive instruction sequences with cheaper equivalent ones, such as scalar-operand (.vf/.vx) forms, "
       "shifts, or widening operations."},
      {"avoid-division", "instructions",
       "Avoid division and square root in inner loops: multiply by a reciprocal computed once, or refine a reciprocal "
       "estimate."},
      {"reduce-once", "instructions",
       "Do the horizontal vector reduction once after the loop: accumulate element-wise in vector registers and reduce "
       "only at the end."},
      {"vector-length-tails", "instructions",
       "Let vsetvl set the vector length for each strip, and handle the tail with the vector length or a mask instead "
       "of a scalar remainder loop."},
      // Control flow.
      {"branch-free-inner-loops", "control-flow",
       "Remove branches from inner loops: use masks, merges, min/max or comparisons instead of data-dependent control "
       "flow."},
      {"size-specialisation", "control-flow",
       "Specialise the kernel for common cases (unit stride, small or fixed sizes, transposed or not) with separate "
       "fast paths."},
      {"loop-fusion-fission", "control-flow",
       "Fuse loops that traverse the same data to save passes over memory, or split a loop whose body needs too many "
       "registers."},
      // Data layout.
      {"packing", "data-layout",
       "Pack matrix panels into contiguous buffers in the exact order the micro-kernel reads them."},
      {"layout-transform", "data-layout",
       "Change the data layout to suit the vectors: interleave or de-interleave with segment loads and stores, or "
       "transpose small blocks in registers."},
      // Less work.
      {"vector-math-approximation", "work",
       "Compute transcendental functions (exp, log, tanh) in vector registers with range reduction and a polynomial "
       "instead of calling scalar library functions."},
      {"remove-redundant-work", "work",
       "Remove redundant work: hoist loop-invariant computations, reuse computed values, and skip work whose result is "
       "known (zero scalars, identity)."},
  };
  return principles;
}

}  // namespace eok::idea_pool
