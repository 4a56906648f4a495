/**
 * Support for adapter authors: the checks and rules every {@link dev.sessionstore.SessionStore} implementation
 * shares, kept here once so that adapters agree on them. Application code does not need this package.
 */
package dev.sessionstore.spi;
