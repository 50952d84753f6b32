/**
 * fabric8's Vert.x HTTP client with WebSockets opened on a Vert.x event loop ({@link
 * io.jdra.httpclient.VertxClientFactory}), the transport of every jdra client that reaches an API
 * server over HTTP.
 */
package io.jdra.httpclient;
