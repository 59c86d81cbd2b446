export { CollectionInfoScreen as default } from './CollectionMethods';
