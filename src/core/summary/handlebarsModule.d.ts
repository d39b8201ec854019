// The CommonJS build of Handlebars without `lib/index.js`, which would register `require` hooks for
// `.hbs` files in the shared extension host. Same API as the package's main entry.
declare module 'handlebars/dist/cjs/handlebars' {
  import Handlebars from 'handlebars';
  export default Handlebars;
}
