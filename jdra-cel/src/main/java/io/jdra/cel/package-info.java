/**
 * CEL device selectors for DRA: {@link io.jdra.cel.DeviceSelectorCompiler} compiles expressions in
 * the Kubernetes DRA environment ({@code device.driver}, {@code device.attributes}, {@code
 * device.capacity}, {@code device.allowMultipleAllocations}) with the Kubernetes CEL libraries,
 * upstream's cost estimation and cost limit, and cel-go style error messages; {@link
 * io.jdra.cel.CompiledSelector#matches} evaluates one against a {@link io.jdra.cel.DeviceInput}.
 *
 * <p>The libraries are those of Kubernetes' base environment, which the DRA environment extends:
 * quantity, semver, regex, Kubernetes lists, URL, IP and CIDR; cel-go's strings (v2), sets, lists
 * (v3, with {@code sortBy} expanded as cel-go expands it), bindings, optionals and two-variable
 * comprehensions. As there, list and map literals must be homogeneous except inside the arguments
 * of {@code format}, and every attribute of a device is converted before a selector runs (so an
 * attribute without a value fails any selector on that device). The authorizer library is left out:
 * the DRA environment declares no {@code authorizer} variable, so upstream's selectors cannot use
 * it either ({@code undeclared reference to 'authorizer'} in both).
 *
 * <p>Benchmarks: {@code scripts/bench jdra-cel -f 1 -wi 2 -i 3 -w 2s -r 2s io.jdra.cel.bench}.
 */
package io.jdra.cel;
