/**
 * Strapi's names for link tables, as Strapi 4.26.2 created them for a component whose
 * `collectionName` holds a hyphen (asked of the reference): the component's own table and its
 * components join table keep the name as written; a link table's name is snake-cased as a whole.
 */
import { expect } from 'chai';
import { componentJoinTableName, joinColumnName, linkTableName } from '../../plugin/storage/naming.js';

describe('storage naming', () => {
  it('snake-cases a link table name as a whole, as Strapi does', () => {
    expect(linkTableName('components_sections_blog-list', 'blogs')).to.equal('components_sections_blog_list_blogs_links');
    expect(linkTableName('articles', 'relatedArticles')).to.equal('articles_related_articles_links');
    expect(componentJoinTableName('components_sections_blog-list')).to.equal('components_sections_blog-list_components');
    expect(joinColumnName('blog-list')).to.equal('blog_list_id');
  });
});
