/**
 * CEL device selectors for DRA: {@link io.jdra.cel.DeviceSelectorCompiler} compiles expressions in
 * the Kubernetes DRA environment ({@code device.driver}, {@code device.attributes}, {@code
 * device.capacity}, {@code device.allowMultipleAllocations}) with the Kubernetes CEL libraries,
 * upstream's cost estimation and cost limit, and cel-go style error messages; {@link
 * io.jdra.cel.CompiledSelector#matches} evaluates one against a {@link io.jdra.cel.DeviceInput}.
 *
 * <p>Benchmarks: {@code scripts/bench jdra-cel -f 1 -wi 2 -i 3 -w 2s -r 2s io.jdra.cel.bench}.
 */
package io.jdra.cel;
