/**
 * Implementation of the allocator; not API. {@code Allocation} runs one call: {@code Pools} gathers
 * pools, {@code Search} is upstream's depth-first search, {@code MatchingPruner} its sound bound,
 * {@code Results} builds AllocationResults and {@code Explainer} explanations.
 */
package io.jdra.allocator.internal;
