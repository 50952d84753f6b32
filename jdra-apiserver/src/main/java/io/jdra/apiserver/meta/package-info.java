/**
 * What every layer of the server shares, as upstream's apimachinery: the Status error ({@link
 * io.jdra.apiserver.meta.ApiException} with its {@link io.jdra.apiserver.meta.Cause}s), the JSON
 * tree helpers ({@link io.jdra.apiserver.meta.Json}), label and field selectors. A leaf: it uses no
 * other package of the server but {@code registry}, so {@code admission}, {@code auth}, {@code
 * rest} and {@code http} can all use it without depending on each other (the ArchUnit rules in
 * jdra-cli's {@code ApiServerLayers} keep it so).
 */
package io.jdra.apiserver.meta;
